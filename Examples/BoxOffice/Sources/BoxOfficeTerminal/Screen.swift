import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the renderers draw on: the style, how many columns a line may take, and the keys of the run,
/// which are hidden in text from outside before it is cut to fit (cut first, a key would show in part).
struct Screen {
    let style: Style
    /// The width lines are fitted to; `nil` when unknown (output to a pipe without `COLUMNS`).
    var columns: Int?
    /// The terminal's height, for screens that must fit it (the interactive search); `nil` when unknown.
    var rows: Int? = nil
    /// The run's API keys.
    var secrets: [String] = []

    /// `text` from outside, cleaned of control characters and with the run's keys hidden.
    func clean(_ text: String) -> String {
        Output.scrub(TerminalText.clean(text), secrets: secrets)
    }

    /// `text` from outside as one clean line, with the run's keys hidden.
    func line(_ text: String) -> String {
        Output.scrub(TerminalText.line(text), secrets: secrets)
    }

    /// The terminal's height: `LINES` when it holds a sensible number, else the height standard output
    /// reports when it is a terminal, else unknown.
    static func rows(environment: [String: String]) -> Int? {
        if let text = environment["LINES"], let value = Int(text), (1...10_000).contains(value) {
            return value
        }
        guard let rows = windowSize()?.rows, rows > 0 else { return nil }
        return rows
    }

    /// The terminal's width: `COLUMNS` when it holds a sensible number, else the width standard output
    /// reports when it is a terminal, else unknown.
    static func columns(environment: [String: String]) -> Int? {
        if let text = environment["COLUMNS"], let value = Int(text), (1...10_000).contains(value) {
            return value
        }
        guard let columns = windowSize()?.columns, columns > 0 else { return nil }
        return columns
    }

    /// The window of standard output's terminal as it reports it now, or `nil` when standard output is
    /// not a terminal (read again on a resize).
    static func windowSize() -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard isatty(STDOUT_FILENO) != 0, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 else {
            return nil
        }
        return (Int(size.ws_col), Int(size.ws_row))
    }
}
