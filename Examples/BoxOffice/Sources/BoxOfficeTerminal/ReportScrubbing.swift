import BoxOffice

/// A report with every string from the APIs passed through a scrubbing function, before the page is
/// made: the page escapes `&`, `<` and quotes, which would hide a key containing one from a scrub of
/// the finished page, and a title ending in part of a key is cut there, as on the terminal.
enum ReportScrubbing {
    /// `report` with `scrub` applied to each title, code and name, and to each failure a cache stood in
    /// for.
    static func scrubbed(_ report: BoxOfficeReport, with scrub: (String) -> String) -> BoxOfficeReport {
        BoxOfficeReport(
            day: report.day,
            films: report.films.map { film in
                ReportFilm(
                    entry: scrubbed(film.entry, with: scrub),
                    details: film.details.map { scrubbed($0, with: scrub) },
                    poster: film.poster)
            }, chartOrigin: scrubbed(report.chartOrigin, with: scrub))
    }

    /// `origin` with the failure a cache stood in for (KOBIS's message, a server's words) scrubbed.
    private static func scrubbed(_ origin: DataOrigin, with scrub: (String) -> String) -> DataOrigin {
        guard case .cacheAfterFailure(let savedAt, let failure) = origin else { return origin }
        return .cacheAfterFailure(savedAt: savedAt, failure: scrub(failure))
    }

    private static func scrubbed(_ entry: DailyBoxOfficeEntry, with scrub: (String) -> String)
        -> DailyBoxOfficeEntry
    {
        DailyBoxOfficeEntry(
            rank: entry.rank, rankChange: entry.rankChange, isNew: entry.isNew,
            movieCode: scrub(entry.movieCode),
            title: scrub(entry.title), openDate: entry.openDate, audienceCount: entry.audienceCount,
            audienceAccumulated: entry.audienceAccumulated, salesAmount: entry.salesAmount,
            salesAccumulated: entry.salesAccumulated, salesShare: entry.salesShare,
            screenCount: entry.screenCount,
            showCount: entry.showCount)
    }

    private static func scrubbed(_ movie: MovieDetails, with scrub: (String) -> String) -> MovieDetails {
        MovieDetails(
            movieCode: scrub(movie.movieCode), title: scrub(movie.title),
            englishTitle: scrub(movie.englishTitle),
            openDate: movie.openDate, runtimeMinutes: movie.runtimeMinutes,
            productionYear: movie.productionYear,
            genres: movie.genres.map(scrub), directors: movie.directors.map(scrub),
            actors: movie.actors.map(scrub),
            nations: movie.nations.map(scrub), watchGrade: movie.watchGrade.map(scrub),
            companies: movie.companies.map(scrub), origin: scrubbed(movie.origin, with: scrub))
    }
}
