import BoxOffice

/// The text layout of search results, shared by `boxoffice search` and the interactive search.
enum SearchRenderer {
    /// One line per film: a selection marker, the title, the English title, year, open date, genres,
    /// directors and code, fitted to the screen. Every string from the API is cleaned.
    static func results(_ movies: [MovieSummary], screen: Screen, selected: Int? = nil) -> [String] {
        let style = screen.style
        return movies.enumerated().map { index, movie in
            let english = screen.line(movie.englishTitle)
            let facts = [
                movie.productionYear.map(String.init) ?? "-",
                "opened " + (movie.openDate?.dashed ?? "-"),
                movie.genres.isEmpty ? "-" : movie.genres.joined(separator: ", "),
                movie.directors.isEmpty ? "-" : movie.directors.joined(separator: ", "),
                movie.movieCode,
            ].map(screen.line).joined(separator: " · ")
            let marker = index == selected ? "› " : "  "
            let title = screen.line(movie.title)
            let rest = (english.isEmpty ? "" : "  " + english) + "  " + facts
            // Styled only when it fits: cutting a styled line could cut an escape sequence in two.
            if let columns = screen.columns, TextWidth.of(marker + title + rest) > columns {
                return marker + TextWidth.truncate(title + rest, to: max(columns - 2, 8))
            }
            return marker + style.bold(title) + style.dim(rest)
        }
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
