/// Makes text from outside (titles, names and error bodies from the APIs, arguments) safe to show on a
/// terminal: no control character reaches it, so no escape sequence can clear the screen, retitle the
/// window or move the cursor, whether standard output is a terminal or a pipe someone later prints.
public enum TerminalText {
    /// What a control character is shown as.
    public static let replacement: Character = "\u{FFFD}"

    /// `text` with every C0 and C1 control character, DEL, and every bidirectional override (which can
    /// make text read differently from what it is) replaced by ``replacement``; tabs and line breaks
    /// become spaces.
    /// - Parameter text: Text that came from outside the program.
    /// - Returns: Text that only prints.
    public static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if !isUnsafe(scalar) {
                result.append(scalar)
            } else if ["\t", "\n", "\r"].contains(scalar) {
                result.append(" ")
            } else {
                result.append(contentsOf: String(replacement).unicodeScalars)
            }
        }
        return String(result)
    }

    /// `text` cleaned, on one line: runs of white space (line breaks included) become one space.
    /// - Parameter text: Text that came from outside the program, such as an error message.
    /// - Returns: One printable line.
    public static func line(_ text: String) -> String {
        clean(text).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// `text` cleaned and cut to `limit` characters, for echoing an argument back.
    /// - Parameters:
    ///   - text: The argument.
    ///   - limit: The most characters shown; 40 by default.
    /// - Returns: The argument, ending with `…` when cut.
    public static func excerpt(_ text: String, limit: Int = 40) -> String {
        let cleaned = line(text)
        guard cleaned.count > limit else { return cleaned }
        return String(cleaned.prefix(limit)) + "…"
    }

    /// `json` with the characters a JSON encoder leaves raw but a terminal would act on (DEL, C1
    /// controls, bidirectional overrides) written as `\uXXXX` escapes: the same JSON value, still valid,
    /// and nothing in it drives the terminal it is printed on. (`JSONEncoder` escapes C0 itself.)
    /// - Parameter json: JSON text from `JSONEncoder`.
    /// - Returns: The same JSON value.
    public static func escapingControls(inJSON json: String) -> String {
        func needsEscape(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x7F && isUnsafe(scalar) }
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var result = ""
        for scalar in json.unicodeScalars {
            if needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `scalar` can change what a terminal does or how text reads.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }
}
