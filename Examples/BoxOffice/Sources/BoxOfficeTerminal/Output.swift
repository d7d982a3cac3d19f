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
    /// with the start of one (at least 6 bytes of it: an excerpt a library cut mid-key) cut there.
    /// Compared byte by byte in UTF-8, so a combining mark or any other neighbour cannot hide a key, and
    /// in time linear in the lengths of `text` and the secrets (Knuth–Morris–Pratt).
    static func scrub(_ text: String, secrets: [String]) -> String {
        var bytes = Array(text.utf8)
        let redacted = Array("REDACTED".utf8)
        var changed = false
        for secret in secrets where secret.count >= 4 {
            let needle = Array(secret.utf8)
            let table = failureTable(needle)
            if let replaced = replacingAll(needle, in: bytes, with: redacted, table: table) {
                bytes = replaced
                changed = true
            }
            let overlap = longestEnding(of: bytes, thatStarts: needle, table: table)
            if overlap >= 6 {
                bytes.removeLast(overlap)
                bytes += redacted
                changed = true
            }
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : text
    }

    /// For each prefix of `pattern`, the length of its longest proper start that is also its ending.
    static func failureTable<Element: Equatable>(_ pattern: [Element]) -> [Int] {
        var table = [Int](repeating: 0, count: pattern.count)
        var length = 0
        for index in pattern.indices.dropFirst() {
            while length > 0, pattern[index] != pattern[length] { length = table[length - 1] }
            if pattern[index] == pattern[length] { length += 1 }
            table[index] = length
        }
        return table
    }

    /// `text` with every occurrence of `needle` replaced by `replacement`, scanning left to right without
    /// overlaps; `nil` when there is none.
    static func replacingAll<Element: Equatable>(
        _ needle: [Element], in text: [Element], with replacement: [Element], table: [Int]
    ) -> [Element]? {
        guard !needle.isEmpty, text.count >= needle.count else { return nil }
        var result: [Element] = []
        var copied = 0
        var matched = 0
        var found = false
        for (index, element) in text.enumerated() {
            while matched > 0, element != needle[matched] { matched = table[matched - 1] }
            if element == needle[matched] { matched += 1 }
            if matched == needle.count {
                let start = index + 1 - needle.count
                result += text[copied..<start]
                result += replacement
                copied = index + 1
                matched = 0
                found = true
            }
        }
        guard found else { return nil }
        return result + text[copied...]
    }

    /// The length of the longest proper start of `secret` that `text` ends with, found in one pass over
    /// `text`'s last elements with the Knuth–Morris–Pratt failure table (no start is compared twice).
    static func longestEnding<Element: Equatable>(
        of text: [Element], thatStarts secret: [Element], table: [Int]? = nil
    ) -> Int {
        guard secret.count > 1 else { return 0 }
        let failure = table ?? failureTable(secret)
        // Only the last `secret.count - 1` elements can hold a proper start.
        var matched = 0
        for element in text.suffix(secret.count - 1) {
            while matched > 0, element != secret[matched] { matched = failure[matched - 1] }
            if element == secret[matched] { matched += 1 }
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
