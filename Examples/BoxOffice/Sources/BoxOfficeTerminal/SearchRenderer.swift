import BoxOffice

/// The text layout of search results, shared by `boxoffice search` and the interactive search.
enum SearchRenderer {
    /// One line per film: a selection marker, the title, the English title, year, open date, genres,
    /// directors and, last, the code, fitted to the screen. The code is what `movie <code>` needs, so it
    /// is never cut: a line too wide loses the facts first, then the English title, then the end of the
    /// title. Each part is cut before it is styled, so a cut line keeps its styling. Every string from
    /// the API is cleaned.
    static func results(_ movies: [MovieSummary], screen: Screen, selected: Int? = nil) -> [String] {
        movies.enumerated().map { index, movie in
            line(for: movie, marker: index == selected ? "› " : "  ", screen: screen)
        }
    }

    private static func line(for movie: MovieSummary, marker: String, screen: Screen) -> String {
        let style = screen.style
        let title = screen.line(movie.title)
        let english = screen.line(movie.englishTitle)
        let facts = [
            movie.productionYear.map(String.init) ?? "-",
            "opened " + (movie.openDate?.dashed ?? "-"),
            movie.genres.isEmpty ? "-" : movie.genres.joined(separator: ", "),
            movie.directors.isEmpty ? "-" : movie.directors.joined(separator: ", "),
        ].map(screen.line).joined(separator: " · ")
        // A KOBIS code is 8 digits; a server's 5,000-character "code" is cut like any other text.
        let code = " · " + TextWidth.truncate(screen.line(movie.movieCode), to: 20)
        var parts = (title: title, english: english.isEmpty ? "" : "  " + english, facts: "  " + facts)
        if let columns = screen.columns {
            // What is left for the title and the rest once the marker and the code have their room.
            var room = columns - TextWidth.of(marker) - TextWidth.of(code)
            parts.title = TextWidth.truncate(title, to: max(min(TextWidth.of(title), room), 1))
            room -= TextWidth.of(parts.title)
            parts.english = fit(parts.english, into: &room)
            parts.facts = fit(parts.facts, into: &room)
        }
        return marker + style.bold(parts.title) + style.dim(parts.english + parts.facts) + code
    }

    /// `text` whole if it fits `room` (which it then uses up), else cut with `…` when at least four
    /// columns are left, else nothing.
    private static func fit(_ text: String, into room: inout Int) -> String {
        let width = TextWidth.of(text)
        if width <= room {
            room -= width
            return text
        }
        guard room >= 4 else { return "" }
        let cut = TextWidth.truncate(text, to: room)
        room = 0
        return cut
    }

    /// The line above the results: how many of how many.
    static func summary(_ result: MovieSearchResult, screen: Screen) -> String {
        let query = screen.line(result.query)
        if result.movies.isEmpty { return "No film matches \"\(query)\"." }
        let shown = result.movies.count
        return result.totalCount > shown
            ? "\(shown) of \(Renderers.grouped(result.totalCount)) films match \"\(query)\":"
            : "\(shown) \(shown == 1 ? "film matches" : "films match") \"\(query)\":"
    }
}
