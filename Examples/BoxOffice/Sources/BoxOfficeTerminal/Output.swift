import BoxOffice
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where everything the command prints goes, so every line is made safe once: external text cleaned
/// of control characters (``TerminalText``), and the API keys this run was given replaced wherever they
/// appear, even in text a server sent back. It also notices a failed write to standard output (a full
/// disk, a closed pipe), which makes the command fail.
final class Output: Sendable {
    /// The keys of this run; only values long enough to be keys are scrubbed.
    let secrets: [String]
    private let failures = FailureFlag()

    init(secrets: [String?]) {
        self.secrets = secrets.compactMap { $0 }.filter { $0.count >= 4 }
    }

    /// Whether a write to standard output has failed.
    var hasFailedToWrite: Bool { failures.isSet }

    /// `text` with every secret replaced by `REDACTED`.
    func scrubbed(_ text: String) -> String {
        Self.scrub(text, secrets: secrets)
    }

    /// `text` with each of `secrets`, whole in any letter case or in part (six bytes of one holding a
    /// letter), replaced by `REDACTED` wherever it appears: ``KeyFragments``, the one rule the data layer
    /// uses too.
    static func scrub(_ text: String, secrets: [String]) -> String {
        guard !secrets.isEmpty else { return text }
        return KeyFragments(secrets).redacting(text)
    }

    /// The most characters an error, warning or note line shows, its `error: ` label included: a message
    /// quoting a huge value from outside (a path in the environment, a server's body) is cut, ending
    /// with `…`, not flooded onto the terminal.
    static let longestLine = 500

    /// `label` and `message` as one line of at most ``longestLine`` characters.
    static func line(_ label: String, _ message: String) -> String {
        let room = longestLine - label.count
        let fitted = message.count > room ? String(message.prefix(room - 1)) + "…" : message
        return label + fitted
    }

    /// Prints a screen the program composed (its parts already cleaned) on standard output, with a
    /// line break after it.
    func print(_ text: String) {
        if !FileDescriptor.write(scrubbed(text) + "\n", to: STDOUT_FILENO) { failures.set() }
    }

    /// Writes an inline image's escape sequence (base64 image bytes, made by ``InlineImage``) on standard
    /// output, with a line break after it.
    func printImage(_ sequence: String) {
        if !FileDescriptor.write(sequence + "\n", to: STDOUT_FILENO) { failures.set() }
    }

    /// Prints one error line, `error: …`, on standard error.
    func error(_ message: String) {
        StandardError.write(Self.line("error: ", scrubbed(TerminalText.line(message))) + "\n")
    }

    /// Prints one warning line, `warning: …`, on standard error.
    func warning(_ message: String) {
        StandardError.write(Self.line("warning: ", scrubbed(TerminalText.line(message))) + "\n")
    }

    /// Prints one note line, `note: …`, on standard error.
    func note(_ message: String) {
        StandardError.write(Self.line("note: ", scrubbed(TerminalText.line(message))) + "\n")
    }

}

/// A flag any thread may set once.
private final class FailureFlag: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read or written while holding `lock`.
    private let lock = NSLock()
    private var value = false

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// Writes to standard error. A failure is ignored: there is nowhere left to report it, and
/// `FileHandle.write(_:)` would trap on it.
enum StandardError {
    static func write(_ text: String) {
        _ = FileDescriptor.write(text, to: STDERR_FILENO)
    }
}

/// `write(2)`, named apart from the method names above.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
    #elseif canImport(Musl)
        Musl.write(descriptor, buffer, count)
    #else
        Darwin.write(descriptor, buffer, count)
    #endif
}

/// Writes with the system call, which reports failure, where Foundation's `FileHandle.write(_:)` traps.
enum FileDescriptor {
    /// Writes all of `text`; returns false when the descriptor refuses (a full disk, a closed descriptor).
    static func write(_ text: String, to descriptor: Int32) -> Bool {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes {
                systemWrite(descriptor, $0.baseAddress, $0.count)
            }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { return false }
            written += result
        }
        return true
    }
}
