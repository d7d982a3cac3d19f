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

    /// `text` with each of `secrets` replaced by `REDACTED` wherever it appears, and a text that ends
    /// with the start of one (at least 6 characters of it: an excerpt a library cut mid-key) cut there.
    /// Linear in the lengths of `text` and the secrets.
    static func scrub(_ text: String, secrets: [String]) -> String {
        var result = text
        for secret in secrets where secret.count >= 4 {
            result = result.replacingOccurrences(of: secret, with: "REDACTED")
            let overlap = longestEnding(of: result, thatStarts: Array(secret))
            if overlap >= 6 { result = String(result.dropLast(overlap)) + "REDACTED" }
        }
        return result
    }

    /// The length of the longest proper start of `secret` that `text` ends with, found in one pass over
    /// `text`'s last characters with the Knuth–Morris–Pratt failure table (no start is compared twice).
    static func longestEnding(of text: String, thatStarts secret: [Character]) -> Int {
        guard secret.count > 1 else { return 0 }
        // failure[i]: the longest proper start of secret[0...i] that is also its ending.
        var failure = [Int](repeating: 0, count: secret.count)
        var length = 0
        for index in secret.indices.dropFirst() {
            while length > 0, secret[index] != secret[length] { length = failure[length - 1] }
            if secret[index] == secret[length] { length += 1 }
            failure[index] = length
        }
        // Only the last `secret.count - 1` characters can hold a proper start.
        var matched = 0
        for character in text.suffix(secret.count - 1) {
            while matched > 0, character != secret[matched] { matched = failure[matched - 1] }
            if character == secret[matched] { matched += 1 }
            if matched == secret.count { matched = failure[matched - 1] }
        }
        return matched
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
