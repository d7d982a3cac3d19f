import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the renderers draw on: the style, and how many columns a line may take.
struct Screen {
    let style: Style
    /// The width lines are fitted to; `nil` when unknown (output to a pipe without `COLUMNS`).
    let columns: Int?

    /// The terminal's width: `COLUMNS` when it holds a sensible number, else the width standard output
    /// reports when it is a terminal, else unknown.
    static func columns(environment: [String: String]) -> Int? {
        if let text = environment["COLUMNS"], let value = Int(text), (1...10_000).contains(value) {
            return value
        }
        var size = winsize()
        guard isatty(STDOUT_FILENO) != 0, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0
        else { return nil }
        return Int(size.ws_col)
    }
}
