import Foundation

/// A spinner on standard error while live network calls run, only when standard error is a terminal.
@MainActor
final class Spinner {
    private var task: Task<Void, Never>?

    static var isAvailable: Bool { isatty(STDERR_FILENO) != 0 }

    func start(_ message: String) {
        guard Self.isAvailable, task == nil else { return }
        task = Task {
            let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
            var index = 0
            while !Task.isCancelled {
                StandardError.write("\r\(frames[index % frames.count]) \(message)")
                index += 1
                try? await Task.sleep(for: .milliseconds(80))
            }
        }
    }

    func stop() {
        guard let task else { return }
        task.cancel()
        self.task = nil
        StandardError.write("\r\u{1B}[2K")
    }
}
