import Foundation

/// ANSI styling: on only when standard output is a terminal that understands it (`TERM` is not
/// `dumb`) and `NO_COLOR` is not set to a non-empty value (the convention at no-color.org).
struct Style {
    let isEnabled: Bool

    static func forStandardOutput(environment: [String: String]) -> Style {
        Style(isEnabled: isatty(STDOUT_FILENO) != 0 && allowsColor(environment: environment))
    }

    /// Whether the environment allows colour: `NO_COLOR` empty or unset, and a `TERM` other than `dumb`.
    static func allowsColor(environment: [String: String]) -> Bool {
        (environment["NO_COLOR"] ?? "").isEmpty && !isDumb(environment: environment)
    }

    /// Whether `TERM` says the terminal cannot move its cursor or change colours.
    static func isDumb(environment: [String: String]) -> Bool {
        environment["TERM"] == "dumb"
    }

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func cyan(_ text: String) -> String { wrap(text, "36") }
    /// `text` in reverse video to its end, even across the resets of coloured parts inside it (a
    /// rank change's arrow), which would otherwise end the reverse video there.
    func inverse(_ text: String) -> String {
        wrap(
            isEnabled ? text.replacingOccurrences(of: Self.reset, with: Self.reset + "\u{1B}[7m") : text, "7")
    }

    /// The sequence that ends every style.
    static let reset = "\u{1B}[0m"

    private func wrap(_ text: String, _ code: String) -> String {
        isEnabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
