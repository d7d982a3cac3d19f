import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A background session's tasks that end with no caller waiting (started before the app was terminated),
/// and the system's handler waiting for the session's events to be delivered.
///
/// Each task the provider starts on a background session carries a ``Note`` in its `taskDescription`,
/// which URLSession keeps with the task across launches: what a later process needs to finish it. A
/// download's file is checked (a `2xx` status) and moved to its destination before URLSession deletes
/// it; an upload's answer is kept (its first MiB). Each is then reported once, on the session's queue.
final class BackgroundTasks: Sendable {
    /// What a task carries for a process that finds it without a caller.
    struct Note: Codable, Sendable, Equatable {
        /// The endpoint's name.
        var endpoint: String
        /// A download's destination, as a file path; under the home folder, relative to it (`~/…`): an
        /// iOS app's container can move when the app is updated.
        var destination: String?

        /// The note as a task description.
        var encoded: String? {
            (try? JSONEncoder().encode(self)).flatMap { String(data: $0, encoding: .utf8) }
        }

        init(endpoint: String, destination: URL?) {
            self.endpoint = endpoint
            let home = NSHomeDirectory()
            self.destination = destination.map { destination in
                let path = destination.standardizedFileURL.path
                return path.hasPrefix(home + "/") ? "~/" + path.dropFirst(home.count + 1) : path
            }
        }

        /// The destination as a file URL, under the home folder of this launch when relative to it.
        var destinationURL: URL? {
            destination.map { path in
                path.hasPrefix("~/")
                    ? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(
                        String(path.dropFirst(2)))
                    : URL(fileURLWithPath: path)
            }
        }

        /// The note a task description holds, or `nil` for one NetworkLayer did not write.
        init?(decoding description: String?) {
            guard let data = description?.data(using: .utf8),
                let note = try? JSONDecoder().decode(Note.self, from: data)
            else { return nil }
            self = note
        }
    }

    /// What an orphaned task has given so far.
    private struct Orphan: Sendable {
        var response: HTTPURLResponse?
        var body = Data()
        var failure: NetworkError?
        var moved = false
    }

    private struct Events: Sendable {
        var handler: (@Sendable () -> Void)?
        var finishedWithoutHandler = false
    }

    private let orphans = Locked<[Int: Orphan]>([:])
    private let events = Locked(Events())
    private let report: @Sendable (BackgroundTransfer) -> Void
    private let handlerQueue: DispatchQueue

    /// - Parameters:
    ///   - report: Called once per orphaned task that carries a ``Note``.
    ///   - handlerQueue: Where the system's events handler is called: the main queue, as UIKit asks.
    init(report: @escaping @Sendable (BackgroundTransfer) -> Void, handlerQueue: DispatchQueue = .main) {
        self.report = report
        self.handlerQueue = handlerQueue
    }

    // MARK: - Orphaned tasks

    /// An orphaned data or upload task's head. Returns whether its body is wanted.
    func received(_ response: URLResponse, for task: URLSessionTask) -> Bool {
        guard Note(decoding: task.taskDescription) != nil else { return false }
        orphans.withLock {
            $0[task.taskIdentifier, default: Orphan()].response = response as? HTTPURLResponse
        }
        return true
    }

    /// An orphaned upload's answer: its first MiB is kept.
    func received(_ data: Data, for task: URLSessionTask) {
        orphans.withLock { orphans in
            let kept = orphans[task.taskIdentifier]?.body.count ?? 0
            let room = max(0, NetworkProvider.errorBodyLimit - kept)
            guard room > 0 else { return }
            orphans[task.taskIdentifier, default: Orphan()].body.append(data.prefix(room))
        }
    }

    /// An orphaned download's file, which URLSession deletes once this returns: moved to the note's
    /// destination when the status is `2xx`, removed otherwise.
    func finished(_ task: URLSessionDownloadTask, at location: URL) {
        let head = task.response as? HTTPURLResponse
        var orphan = Orphan(response: head)
        if let destination = Note(decoding: task.taskDescription)?.destinationURL,
            let status = head?.statusCode, (200..<300).contains(status)
        {
            let file = DownloadTaskFile(destination: destination)
            do {
                try file.adopt(location)
                _ = try file.move(to: destination)
                orphan.moved = true
            } catch {
                orphan.failure = error as? NetworkError ?? .file(error)
            }
        } else {
            try? FileManager.default.removeItem(at: location)
        }
        orphans.withLock { $0[task.taskIdentifier] = orphan }
    }

    /// An orphaned task ended: reported, when it carries a note.
    func completed(_ task: URLSessionTask, error: (any Error)?) {
        let orphan = orphans.withLock { $0.removeValue(forKey: task.taskIdentifier) } ?? Orphan()
        guard let note = Note(decoding: task.taskDescription) else { return }
        let response = orphan.response ?? task.response as? HTTPURLResponse
        let kind: BackgroundTransfer.Kind =
            note.destinationURL.map { .download(destination: $0) } ?? .upload
        report(
            BackgroundTransfer(
                endpoint: note.endpoint, kind: kind, response: response,
                body: kind == .upload ? orphan.body : Data(),
                error: Self.failure(of: orphan, response: response, kind: kind, error: error)))
    }

    /// Why an orphaned task failed, or `nil` when it did not.
    private static func failure(
        of orphan: Orphan, response: HTTPURLResponse?, kind: BackgroundTransfer.Kind, error: (any Error)?
    ) -> NetworkError? {
        if orphan.moved { return nil }
        if let error { return networkError(DownloadTaskFile.withoutResumeData(error)) }
        if let failure = orphan.failure { return failure }
        guard let response else { return .transport(URLError(.badServerResponse)) }
        guard (200..<300).contains(response.statusCode) else {
            return .unacceptableStatus(
                .init(
                    statusCode: response.statusCode, headers: response.headerFields, body: orphan.body,
                    url: response.url))
        }
        // A download that reported no file.
        if case .download = kind { return .file(POSIXError(.ENOENT)) }
        return nil
    }

    private static func networkError(_ error: any Error) -> NetworkError {
        switch error {
        case let error as NetworkError: error
        case let error as URLError: .transport(error)
        case let error as POSIXError: .file(error)
        case let error as CocoaError where error.isFileError: .file(error)
        default: .session(error)
        }
    }

    // MARK: - The system's handler

    /// Keeps the handler the system gave the app for this session's events, and calls it once they have
    /// all been delivered; at once when they were before it came.
    func handleEvents(_ handler: @escaping @Sendable () -> Void) {
        let now = events.withLock { events -> Bool in
            guard events.finishedWithoutHandler else {
                events.handler = handler
                return false
            }
            events.finishedWithoutHandler = false
            return true
        }
        if now { handlerQueue.async(execute: handler) }
    }

    /// URLSession delivered every event the system held for the session.
    func eventsFinished() {
        let handler = events.withLock { events -> (@Sendable () -> Void)? in
            defer { events.handler = nil }
            events.finishedWithoutHandler = events.handler == nil
            return events.handler
        }
        if let handler { handlerQueue.async(execute: handler) }
    }
}
