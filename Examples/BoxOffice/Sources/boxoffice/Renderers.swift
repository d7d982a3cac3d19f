import BoxOffice

/// Text layouts of the screens, shared by the one-shot commands and the interactive mode.
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

    static func change(_ entry: DailyBoxOfficeEntry, style: Style) -> (text: String, width: Int) {
        if entry.isNew { return (style.yellow("NEW"), 3) }
        if entry.rankChange > 0 {
            let text = "▲\(entry.rankChange)"
            return (style.green(text), TextWidth.of(text))
        }
        if entry.rankChange < 0 {
            let text = "▼\(-entry.rankChange)"
            return (style.red(text), TextWidth.of(text))
        }
        return (style.dim("-"), 1)
    }

    static func header(day: Day, isDemo: Bool, style: Style) -> String {
        style.bold("Daily box office \(day)") + (isDemo ? style.dim("  · demo data") : "")
    }

    /// An aligned table: rank, change, title, audience that day, accumulated.
    static func list(_ entries: [DailyBoxOfficeEntry], style: Style, selected: Int? = nil) -> [String] {
        let titleWidth = min(max(entries.map { TextWidth.of($0.title) }.max() ?? 5, 5), 32)
        let audience = entries.map { grouped($0.audienceCount) }
        let accumulated = entries.map { grouped($0.audienceAccumulated) }
        let audienceWidth = max(audience.map(\.count).max() ?? 0, "Audience".count)
        let accumulatedWidth = max(accumulated.map(\.count).max() ?? 0, "Accumulated".count)
        var lines = [
            style.dim(
                "Rank  Change  " + TextWidth.pad("Title", to: titleWidth) + "  "
                    + TextWidth.pad("Audience", to: audienceWidth, alignRight: true) + "  "
                    + TextWidth.pad("Accumulated", to: accumulatedWidth, alignRight: true))
        ]
        for (index, entry) in entries.enumerated() {
            let change = change(entry, style: style)
            var line =
                TextWidth.pad(String(entry.rank), to: 4, alignRight: true) + "  " + change.text
                + String(repeating: " ", count: max(6 - change.width, 0)) + "  "
                + TextWidth.pad(entry.title, to: titleWidth) + "  "
                + TextWidth.pad(audience[index], to: audienceWidth, alignRight: true) + "  "
                + TextWidth.pad(accumulated[index], to: accumulatedWidth, alignRight: true)
            if index == selected { line = style.inverse(line) }
            lines.append(line)
        }
        return lines
    }

    /// Cards, three to a row.
    static func grid(_ entries: [DailyBoxOfficeEntry], style: Style, selected: Int? = nil, columns: Int = 3)
        -> [String]
    {
        let inner = 24
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
                    " " + rank + change.text
                    + String(repeating: " ", count: max(inner - 1 - rank.count - change.width, 0))
                let border = { (text: String) in isSelected ? style.inverse(text) : text }
                top += border("┌" + String(repeating: "─", count: inner) + "┐") + " "
                first += border("│") + headline + border("│") + " "
                second +=
                    border("│") + " " + TextWidth.pad(entry.title, to: inner - 2) + " " + border("│") + " "
                third +=
                    border("│") + " " + TextWidth.pad(grouped(entry.audienceCount) + " today", to: inner - 2)
                    + " " + border("│") + " "
                bottom += border("└" + String(repeating: "─", count: inner) + "┘") + " "
            }
            lines += [top, first, second, third, bottom].map { String($0.dropLast()) }
            start += columns
        }
        return lines
    }

    static func details(_ movie: MovieDetails, poster: MovieDetailsViewModel.PosterState, style: Style)
        -> [String]
    {
        func row(_ label: String, _ value: String) -> String {
            style.dim(TextWidth.pad(label, to: 11)) + " " + value
        }
        let list = { (names: [String]) in names.isEmpty ? "-" : names.joined(separator: ", ") }
        var lines = [
            style.bold(movie.title)
                + (movie.englishTitle.isEmpty ? "" : style.dim("  \(movie.englishTitle)")),
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
            lines.append(
                row(
                    "",
                    "\(found.file.path) (\(Renderers.grouped(found.byteCount)) bytes, from \(found.source.rawValue))"
                ))
        case .loading, .notRequested:
            lines.append(row("Poster", style.dim("loading…")))
        case .notFound:
            lines.append(row("Poster", style.dim("none found")))
        case .failed(let reason):
            lines.append(row("Poster", style.dim("unavailable: \(reason)")))
        }
        return lines
    }
}
