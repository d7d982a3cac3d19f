/// Fits a screen to the terminal's height, so nothing scrolls off its top: the lines above and below
/// the body stay, and the body is cut to the rows left, keeping its first `pinned` lines (a table's
/// column names) and the `focus` lines (the selection) in view.
enum ScreenFit {
    /// At most `rows` lines: `top`, as much of `body` as fits, `bottom`. With no height known, or
    /// everything fitting, all of them.
    static func lines(
        top: [String], body: [String], pinned: Int, focus: Range<Int>?, bottom: [String], rows: Int?
    ) -> [String] {
        guard let rows, top.count + body.count + bottom.count > rows else { return top + body + bottom }
        let room = rows - top.count - bottom.count
        // Not even one body line fits: the top first, then the bottom, cut to the height.
        guard room > 0 else { return Array((top + bottom).prefix(max(rows, 0))) }
        // The pinned lines give way to the focus when the room holds not both.
        let kept = min(pinned, body.count, focus == nil ? room : max(room - 1, 0))
        let scrolled = Array(body.dropFirst(kept))
        let window = room - kept
        var first = 0
        if let focus, window > 0 {
            // The smallest scroll that shows the focus's last line, then its first when it is taller.
            let end = focus.upperBound - kept
            let start = focus.lowerBound - kept
            first = max(end - window, 0)
            first = min(first, max(start, 0))
        }
        first = min(first, max(scrolled.count - window, 0))
        return top + Array(body.prefix(kept)) + Array(scrolled.dropFirst(first).prefix(window)) + bottom
    }

    /// Key hints joined by ` · `, as many as fit `columns`, always ending with the last one (how to
    /// quit or go back); all of them when the width is unknown.
    static func hints(_ hints: [String], columns: Int?) -> String {
        guard let columns, let last = hints.last else { return hints.joined(separator: " · ") }
        var shown: [String] = []
        for hint in hints.dropLast() {
            let candidate = (shown + [hint, last]).joined(separator: " · ")
            guard TextWidth.of(candidate) <= columns else { break }
            shown.append(hint)
        }
        return TextWidth.truncate((shown + [last]).joined(separator: " · "), to: max(columns, 1))
    }
}
