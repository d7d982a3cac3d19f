import Foundation

/// ANSI styling, on only when the stream is a terminal and `NO_COLOR` is unset.
struct Style {
    let isEnabled: Bool

    static func forStandardOutput(environment: [String: String]) -> Style {
        Style(isEnabled: isatty(STDOUT_FILENO) != 0 && environment["NO_COLOR"] == nil)
    }

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func cyan(_ text: String) -> String { wrap(text, "36") }
    func inverse(_ text: String) -> String { wrap(text, "7") }

    private func wrap(_ text: String, _ code: String) -> String {
        isEnabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

/// Writes to standard error.
enum StandardError {
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
