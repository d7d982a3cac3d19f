import Dispatch
import Foundation

/// A key the interactive mode understands.
enum Key: Equatable, Sendable {
    case up, down, left, right, enter, escape, interrupt, backspace
    /// A key the app does not use (Delete, Home, F5, …), read whole so none of its bytes act as keys.
    case ignored
    case character(Character)
}

/// The terminal in raw mode for the interactive screen: keys one at a time, no echo, the alternate
/// screen, and everything restored on exit, on Ctrl-C and on SIGTERM/SIGHUP.
final class RawTerminal: @unchecked Sendable {
    // @unchecked Sendable: `original` is written once in `init` and then only read; restoring it twice
    // (from a signal handler and from the normal exit) is harmless.
    private let original: termios
    private let output: Output
    private var signalSources: [any DispatchSourceSignal] = []

    /// Enters raw mode; `nil` when standard input is not a terminal.
    /// - Parameter output: Scrubs the run's secrets from every screen drawn.
    init?(output: Output) {
        self.output = output
        guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else { return nil }
        var attributes = termios()
        guard tcgetattr(STDIN_FILENO, &attributes) == 0 else { return nil }
        original = attributes
        var raw = attributes
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        Self.write("\u{1B}[?1049h\u{1B}[?25l")
        signalSources = Self.restoreOnSignals(self)
    }

    /// Leaves raw mode and the alternate screen.
    func restore() {
        var attributes = original
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &attributes)
        Self.write("\u{1B}[?25h\u{1B}[?1049l")
    }

    /// Replaces the screen's content.
    func draw(_ lines: [String]) {
        Self.write("\u{1B}[H\u{1B}[2J" + output.scrubbed(lines.joined(separator: "\r\n")))
    }

    static func write(_ text: String) {
        _ = FileDescriptor.write(text, to: STDOUT_FILENO)
    }

    /// How long a lone Esc waits for the rest of an escape sequence before it counts as the Esc key.
    static let escapeTimeoutMilliseconds: Int32 = 50

    /// Keys from standard input, read on a background thread. An Esc not followed by more bytes within
    /// ``escapeTimeoutMilliseconds`` is the Esc key at once, not held until the next key.
    static func keys() -> AsyncStream<Key> {
        AsyncStream { continuation in
            let thread = Thread {
                var pending: [UInt8] = []
                var byte: UInt8 = 0
                while true {
                    if pending == [0x1B], !inputArrives(within: escapeTimeoutMilliseconds) {
                        continuation.yield(.escape)
                        pending.removeAll()
                        continue
                    }
                    guard read(STDIN_FILENO, &byte, 1) == 1 else { break }
                    pending.append(byte)
                    while let (key, used) = decode(pending) {
                        continuation.yield(key)
                        pending.removeFirst(used)
                    }
                }
                continuation.finish()
            }
            thread.start()
        }
    }

    /// Whether standard input has a byte to read within `milliseconds`.
    private static func inputArrives(within milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    /// The first key in `bytes` and how many bytes it used; `nil` when more bytes are needed.
    static func decode(_ bytes: [UInt8]) -> (Key, Int)? {
        guard let first = bytes.first else { return nil }
        switch first {
        case 0x03: return (.interrupt, 1)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x1B:
            if bytes.count == 1 { return nil }
            guard bytes[1] == 0x5B || bytes[1] == 0x4F else { return (.escape, 1) }
            // A CSI or SS3 sequence runs to its final byte (0x40–0x7E): `ESC [ 3 ~` is Delete, one key.
            guard let final = bytes.dropFirst(2).firstIndex(where: { (0x40...0x7E).contains($0) }) else {
                // Unfinished; a sequence that never ends within 16 bytes is dropped, not waited on.
                return bytes.count >= 16 ? (.ignored, bytes.count) : nil
            }
            let key: Key =
                switch (final == 2, bytes[final]) {
                case (true, 0x41): .up
                case (true, 0x42): .down
                case (true, 0x43): .right
                case (true, 0x44): .left
                default: .ignored
                }
            return (key, final + 1)
        default:
            let length = first < 0x80 ? 1 : first < 0xE0 ? 2 : first < 0xF0 ? 3 : 4
            guard bytes.count >= length else { return nil }
            let text = String(decoding: bytes[0..<length], as: UTF8.self)
            return (text.first.map(Key.character) ?? .escape, length)
        }
    }

    /// Calls `handler` with the terminal's new width and height each time its window is resized
    /// (SIGWINCH), on a background queue, until the returned source is cancelled.
    func onResize(_ handler: @escaping @Sendable (_ columns: Int, _ rows: Int) -> Void)
        -> any DispatchSourceSignal
    {
        Self.watchResizes(handler)
    }

    /// Built in a nonisolated function so the handler is not inferred to be main-actor isolated.
    private static func watchResizes(
        _ handler: @escaping @Sendable (_ columns: Int, _ rows: Int) -> Void
    ) -> any DispatchSourceSignal {
        signal(SIGWINCH, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        source.setEventHandler {
            if let size = Screen.windowSize(), size.columns > 0, size.rows > 0 {
                handler(size.columns, size.rows)
            }
        }
        source.resume()
        return source
    }

    /// Restores the terminal and exits when a terminating signal arrives. Built in a nonisolated
    /// function so the handlers are not inferred to be main-actor isolated.
    private static func restoreOnSignals(_ terminal: RawTerminal) -> [any DispatchSourceSignal] {
        [SIGTERM, SIGHUP, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                terminal.restore()
                exit(128 + number)
            }
            source.resume()
            return source
        }
    }
}
