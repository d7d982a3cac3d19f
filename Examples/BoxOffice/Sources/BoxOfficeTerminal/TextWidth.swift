/// Terminal column widths, measured per character (grapheme cluster) as terminals draw them: Hangul
/// (composed, or decomposed into jamo), CJK and emoji take two columns, combining marks none. An emoji
/// is two columns however it is built: a scalar with emoji presentation (🚀, 🪐, ⚡), a text symbol made
/// emoji by U+FE0F (❤️), a skin tone or a ZWJ family, and a flag (a pair of regional indicators, or a
/// lone one).
enum TextWidth {
    static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// The columns `character` takes.
    static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        if scalars.contains(where: { $0.properties.isEmojiPresentation || isRegionalIndicator($0) }) {
            return 2
        }
        if scalars.contains("\u{FE0F}"), scalars.first?.properties.isEmoji == true { return 2 }
        return scalars.reduce(0) { $0 + width(of: $1) }
    }

    private static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value == 0 || value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value == 0x200D { return 0 }
        // Hangul's medial vowels and final consonants (decomposed, NFD) join the leading consonant
        // before them: terminals draw them in its two columns.
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x2E80...0x303E,
            0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F900...0x1FAFF,
            0x20000...0x2FFFD, 0x30000...0x3FFFD,
        ]
        return wide.contains { $0.contains(value) } ? 2 : 1
    }

    /// `text` padded with spaces to `columns` (or cut with an ellipsis to fit).
    static func pad(_ text: String, to columns: Int, alignRight: Bool = false) -> String {
        let fitted = truncate(text, to: columns)
        let padding = String(repeating: " ", count: max(columns - of(fitted), 0))
        return alignRight ? padding + fitted : fitted + padding
    }

    /// `text` cut to at most `columns`, ending with `…` when cut.
    static func truncate(_ text: String, to columns: Int) -> String {
        guard of(text) > columns else { return text }
        var result = ""
        var used = 0
        for character in text {
            let width = of(String(character))
            if used + width > columns - 1 { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }

    /// A line that may carry style sequences (`ESC [ … m`), cut to at most `columns` visible columns,
    /// ending with `…` and a reset when cut. Sequences take no column and are never cut in two, and nor
    /// is a character (a flag, a ZWJ family).
    static func fitStyled(_ line: String, to columns: Int) -> String {
        let characters = Array(line)
        // Visible width first: most lines fit and are returned as they are.
        var width = 0
        var index = 0
        while index < characters.count {
            if characters[index] == "\u{1B}" {
                index = endOfSequence(characters, from: index)
                continue
            }
            width += self.width(of: characters[index])
            index += 1
        }
        guard width > columns else { return line }
        var result = ""
        var used = 0
        index = 0
        let room = max(columns - 1, 0)
        while index < characters.count {
            if characters[index] == "\u{1B}" {
                let end = endOfSequence(characters, from: index)
                result.append(contentsOf: characters[index..<end])
                index = end
                continue
            }
            let next = self.width(of: characters[index])
            if used + next > room { break }
            result.append(characters[index])
            used += next
            index += 1
        }
        return result + (columns > 0 ? "…" : "") + (line.contains("\u{1B}[") ? "\u{1B}[0m" : "")
    }

    /// The index after the escape sequence starting at `start`: a CSI sequence runs to its final byte.
    private static func endOfSequence(_ characters: [Character], from start: Int) -> Int {
        var index = start + 1
        guard index < characters.count, characters[index] == "[" else { return index }
        index += 1
        while index < characters.count, !isFinalByte(characters[index]) { index += 1 }
        return min(index + 1, characters.count)
    }

    /// Whether `character` ends a CSI sequence (a byte in `@`…`~`).
    private static func isFinalByte(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 else {
            return false
        }
        return (0x40...0x7E).contains(scalar.value)
    }
}
