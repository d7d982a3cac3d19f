import BoxOffice

/// Text layouts of the screens, shared by the one-shot commands and the interactive mode.
///
/// Every string that came from the APIs goes through ``TerminalText/clean(_:)`` here, and lines are
/// fitted to the screen's width by display width (Hangul and most emoji take two columns).
enum Renderers {
    static func grouped(_ number: some BinaryInteger) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (number < 0 ? "-" : "") + result
    }

    /// The largest rank change shown as a number; beyond it, `▲999+`. A chart has ten rows, so no real
    /// change comes near it, but a server's `rankInten` may be anything up to `Int.min`.
    static let largestChangeShown: UInt = 999

    /// `▲3`, `▼2`, `-`, or `▲999+` for a change too large to be real: at most 5 columns.
    static func changeText(_ change: Int) -> String {
        guard change != 0 else { return "-" }
        // `magnitude`, not negation: a server's rankInten may be Int.min, whose negation traps.
        let size = change.magnitude > largestChangeShown ? "\(largestChangeShown)+" : "\(change.magnitude)"
        return (change > 0 ? "▲" : "▼") + size
    }

    static func change(_ entry: DailyBoxOfficeEntry, style: Style) -> (text: String, width: Int) {
        if entry.isNew { return (style.yellow("NEW"), 3) }
        let text = changeText(entry.rankChange)
        let styled =
            entry.rankChange > 0
            ? style.green(text) : entry.rankChange < 0 ? style.red(text) : style.dim(text)
        return (styled, TextWidth.of(text))
    }

    static func header(day: Day, isDemo: Bool, style: Style) -> String {
        style.bold("Daily box office \(day)") + (isDemo ? style.dim("  · demo data") : "")
    }

    /// An aligned table: a selection marker, rank, change, title, audience that day, accumulated. On a
    /// narrow screen the title column shrinks (to 10 columns), then the accumulated column is left out and
    /// the title shrinks further, so rows fit any screen of 30 columns or more; titles longer than their
    /// column end with `…`.
    static func list(_ entries: [DailyBoxOfficeEntry], screen: Screen, selected: Int? = nil) -> [String] {
        let style = screen.style
        let titles = entries.map { screen.clean($0.title) }
        let audience = entries.map { grouped($0.audienceCount) }
        let accumulated = entries.map { grouped($0.audienceAccumulated) }
        let audienceWidth = max(audience.map(\.count).max() ?? 0, "Audience".count)
        let accumulatedWidth = max(accumulated.map(\.count).max() ?? 0, "Accumulated".count)
        // "› " + rank 4 + 2 + change 6 + 2 + title + 2 + audience [+ 2 + accumulated]
        let fixed = 2 + 4 + 2 + 6 + 2 + 2 + audienceWidth
        let naturalTitleWidth = min(max(titles.map(TextWidth.of).max() ?? 5, 5), 32)
        var titleWidth = naturalTitleWidth
        var showsAccumulated = true
        if let columns = screen.columns {
            let besideAccumulated = columns - fixed - 2 - accumulatedWidth
            if besideAccumulated >= min(naturalTitleWidth, 10) {
                titleWidth = min(naturalTitleWidth, besideAccumulated)
            } else {
                showsAccumulated = false
                titleWidth = min(naturalTitleWidth, max(columns - fixed, 3))
            }
        }
        func row(
            _ marker: String, _ rank: String, _ change: String, _ title: String, _ audience: String,
            _ total: String
        )
            -> String
        {
            marker + rank + "  " + change + "  " + TextWidth.pad(title, to: titleWidth) + "  "
                + TextWidth.pad(audience, to: audienceWidth, alignRight: true)
                + (showsAccumulated
                    ? "  " + TextWidth.pad(total, to: accumulatedWidth, alignRight: true) : "")
        }
        var lines = [style.dim(row("  ", "Rank", "Change", "Title", "Audience", "Accumulated"))]
        for (index, entry) in entries.enumerated() {
            let change = change(entry, style: style)
            let changeColumn = change.text + String(repeating: " ", count: max(6 - change.width, 0))
            let isSelected = index == selected
            // The marker shows the selection without colour too (NO_COLOR, TERM=dumb).
            var line = row(
                isSelected ? "› " : "  ", TextWidth.pad(String(entry.rank), to: 4, alignRight: true),
                changeColumn,
                titles[index], audience[index], accumulated[index])
            if isSelected { line = style.inverse(line) }
            lines.append(line)
        }
        return lines
    }

    /// Cards, as many to a row as fit the screen (three when the width is unknown). The selected card
    /// has a heavy border, which shows without colour too.
    static func grid(_ entries: [DailyBoxOfficeEntry], screen: Screen, selected: Int? = nil) -> [String] {
        let style = screen.style
        let inner = cardWidth(for: screen)
        let columns = gridColumns(for: screen)
        var lines: [String] = []
        var start = 0
        while start < entries.count {
            let row = Array(entries[start..<min(start + columns, entries.count)])
            var top = ""
            var first = ""
            var second = ""
            var third = ""
            var bottom = ""
            for (offset, entry) in row.enumerated() {
                let isSelected = start + offset == selected
                let change = change(entry, style: style)
                let rank = "#\(entry.rank) "
                let headline =
                    " " + TextWidth.truncate(rank, to: inner - 1) + change.text
                    + String(repeating: " ", count: max(inner - 1 - rank.count - change.width, 0))
                let box = isSelected ? ("┏", "━", "┓", "┃", "┗", "┛") : ("┌", "─", "┐", "│", "└", "┘")
                let border = { (text: String) in isSelected ? style.inverse(text) : text }
                top += border(box.0 + String(repeating: box.1, count: inner) + box.2) + " "
                first += border(box.3) + headline + border(box.3) + " "
                second +=
                    border(box.3) + " " + TextWidth.pad(screen.clean(entry.title), to: inner - 2) + " "
                    + border(box.3) + " "
                third +=
                    border(box.3) + " "
                    + TextWidth.pad(grouped(entry.audienceCount) + " today", to: inner - 2)
                    + " " + border(box.3) + " "
                bottom += border(box.4 + String(repeating: box.1, count: inner) + box.5) + " "
            }
            lines += [top, first, second, third, bottom].map { String($0.dropLast()) }
            start += columns
        }
        return lines
    }

    /// The inside width of a card: 24 columns, less on a screen narrower than one card.
    static func cardWidth(for screen: Screen) -> Int {
        screen.columns.map { min(24, max($0 - 2, 10)) } ?? 24
    }

    /// How many cards fit side by side: at most three.
    static func gridColumns(for screen: Screen) -> Int {
        guard let width = screen.columns else { return 3 }
        return max(1, min(3, (width + 1) / (cardWidth(for: screen) + 3)))
    }

    static func details(_ movie: MovieDetails, poster: MovieDetailsViewModel.PosterState, screen: Screen)
        -> [String]
    {
        let style = screen.style
        let valueWidth = screen.columns.map { max($0 - 12, 10) }
        func row(_ label: String, _ value: String) -> String {
            let cleaned = screen.line(value)
            let fitted = valueWidth.map { TextWidth.truncate(cleaned, to: $0) } ?? cleaned
            return style.dim(TextWidth.pad(label, to: 11)) + " " + fitted
        }
        let list = { (names: [String]) in names.isEmpty ? "-" : names.joined(separator: ", ") }
        let title = screen.line(movie.title)
        let english = screen.line(movie.englishTitle)
        var lines = [
            style.bold(title) + (english.isEmpty ? "" : style.dim("  \(english)")),
            row("Code", movie.movieCode),
            row("Opened", movie.openDate?.dashed ?? "-"),
            row("Runtime", movie.runtimeMinutes.map { "\($0) min" } ?? "-"),
            row("Year", movie.productionYear.map(String.init) ?? "-"),
            row("Genres", list(movie.genres)),
            row("Directors", list(movie.directors)),
            row("Actors", list(Array(movie.actors.prefix(8))) + (movie.actors.count > 8 ? " …" : "")),
            row("Nations", list(movie.nations)),
            row("Rating", movie.watchGrade ?? "-"),
            row("Companies", list(movie.companies)),
        ]
        switch poster {
        case .loaded(let found):
            lines.append(row("Poster", found.url.absoluteString))
            let size = "\(Renderers.grouped(found.byteCount)) bytes, \(found.source.phrase)"
            lines.append(row("", found.file.map { "\($0.path) (\(size))" } ?? "in memory only (\(size))"))
        case .loading, .notRequested:
            lines.append(style.dim(TextWidth.pad("Poster", to: 11)) + " " + style.dim("loading…"))
        case .notFound:
            lines.append(style.dim(TextWidth.pad("Poster", to: 11)) + " " + style.dim("none found"))
        case .failed(let reason):
            lines.append(row("Poster", "unavailable: \(reason)"))
        }
        return lines
    }

    /// `note` as dim lines that fit the window's width, wrapped at spaces, so its end (the failure a
    /// cache stood in for, and its code) is never cut off at the edge; one line when the width is not
    /// known.
    static func noteLines(_ note: String, screen: Screen) -> [String] {
        let text = screen.line("note: " + note)
        guard let columns = screen.columns, columns > 10 else { return [screen.style.dim(text)] }
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if TextWidth.of(candidate) <= columns || current.isEmpty {
                current = candidate
            } else {
                lines.append(current)
                current = "  " + word
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines.map(screen.style.dim)
    }
}
