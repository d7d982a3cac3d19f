import Foundation

/// A KOBIS field that does not hold what its documentation promises.
public struct KobisMappingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field, such as `audiCnt`.
    public let field: String
    /// What KOBIS sent.
    public let value: String
    /// Where: `row 4 of 2026-11-21`, or `movie 20124079`.
    public let location: String

    /// Creates an error for `field`'s `value` at `location`.
    public init(field: String, value: String, location: String) {
        self.field = field
        self.value = value
        self.location = location
    }

    /// One line naming the field, the value and where.
    public var description: String {
        "KOBIS sent \(field) \"\(value)\" in \(location), which is not a valid value"
    }
}

extension DailyBoxOffice {
    /// The domain chart for `day` from KOBIS's rows: numbers parsed, titles trimmed, a blank `openDt`
    /// made `nil`. Only the ``DailyBoxOffice/maximumEntries`` best-ranked rows are read whole (the first
    /// sent among equal ranks); the rest are counted in ``DailyBoxOffice/omittedEntries``, their ranks
    /// the only field read.
    /// - Throws: ``KobisMappingError`` naming the first field that is not what KOBIS documents: a
    ///   `showRange` other than `day` to `day` first (another day's chart is never taken, or kept, as the
    ///   day asked).
    public init(day: Day, response: KobisDailyBoxOfficeResponse) throws(KobisMappingError) {
        let range = response.boxOfficeResult.showRange.trimmingCharacters(in: .whitespaces)
        guard range == "\(day.compact)~\(day.compact)" else {
            throw KobisMappingError(
                field: "showRange", value: String(range.prefix(40)), location: "the chart asked for \(day)")
        }
        let rows = response.boxOfficeResult.dailyBoxOfficeList
        var ranked: [(rank: Int, index: Int)] = []
        ranked.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            let rank = try KobisField(location: "row \(index + 1) of \(day)").int(row.rank, "rank")
            ranked.append((rank, index))
        }
        // A server may send its rows in any order: the top ten are the best ranks, not the first rows.
        let top = ranked.sorted { ($0.rank, $0.index) < ($1.rank, $1.index) }.prefix(
            DailyBoxOffice.maximumEntries)
        var entries: [DailyBoxOfficeEntry] = []
        for (rank, index) in top {
            let row = rows[index]
            let field = KobisField(location: "row \(index + 1) of \(day)")
            entries.append(
                DailyBoxOfficeEntry(
                    rank: rank,
                    rankChange: try field.int(row.rankInten, "rankInten"),
                    isNew: row.rankOldAndNew == "NEW",
                    movieCode: row.movieCd.trimmingCharacters(in: .whitespaces),
                    title: row.movieNm.trimmingCharacters(in: .whitespaces),
                    openDate: try field.optionalDay(row.openDt, "openDt", dashed: true),
                    audienceCount: try field.int(row.audiCnt, "audiCnt"),
                    audienceAccumulated: try field.int(row.audiAcc, "audiAcc"),
                    salesAmount: try field.int64(row.salesAmt, "salesAmt"),
                    salesAccumulated: try field.int64(row.salesAcc, "salesAcc"),
                    salesShare: try field.double(row.salesShare, "salesShare"),
                    screenCount: try field.int(row.scrnCnt, "scrnCnt"),
                    showCount: try field.int(row.showCnt, "showCnt")))
        }
        self.init(day: day, entries: entries, omittedEntries: rows.count - entries.count)
    }
}

extension MovieDetails {
    /// The domain details from KOBIS's movie info: `openDt` in `yyyyMMdd`, blank values made `nil`.
    /// - Throws: ``KobisMappingError`` naming a field that is not what KOBIS documents.
    public init(response: KobisMovieInfoResponse) throws(KobisMappingError) {
        guard let info = response.movieInfoResult.movieInfo else {
            throw KobisMappingError(field: "movieInfo", value: "{}", location: "the answer")
        }
        let field = KobisField(location: "movie \(info.movieCd)")
        let trimmed = { (text: String) in text.trimmingCharacters(in: .whitespaces) }
        self.init(
            movieCode: trimmed(info.movieCd),
            title: trimmed(info.movieNm),
            englishTitle: trimmed(info.movieNmEn),
            openDate: try field.optionalDay(info.openDt, "openDt", dashed: false),
            runtimeMinutes: try field.optionalInt(info.showTm, "showTm"),
            productionYear: try field.optionalInt(info.prdtYear, "prdtYear"),
            genres: info.genres.map { trimmed($0.genreNm) },
            directors: info.directors.map { trimmed($0.peopleNm) },
            actors: info.actors.map { trimmed($0.peopleNm) },
            nations: info.nations.map { trimmed($0.nationNm) },
            watchGrade: info.audits.first.map { trimmed($0.watchGradeNm) }.flatMap { $0.isEmpty ? nil : $0 },
            companies: (info.companys ?? []).map { company in
                let part = trimmed(company.companyPartNm ?? "")
                return part.isEmpty ? trimmed(company.companyNm) : "\(trimmed(company.companyNm)) (\(part))"
            })
    }
}

extension MovieSearchResult {
    /// The domain result from KOBIS's movie list: genres split on commas, blank values made `nil`,
    /// `openDt` in `yyyyMMdd`. Only the first `limit` films are read, however many a server sends.
    /// - Parameters:
    ///   - query: The title searched for.
    ///   - response: KOBIS's answer.
    ///   - limit: The most films kept; 100 (KOBIS's largest page) by default.
    /// - Throws: ``KobisMappingError`` naming a field that is not what KOBIS documents (a negative
    ///   `totCnt`, a production year that is not a number, an impossible date).
    public init(query: String, response: KobisMovieListResponse, limit: Int = 100) throws(KobisMappingError) {
        let result = response.movieListResult
        guard result.totCnt >= 0 else {
            throw KobisMappingError(
                field: "totCnt", value: "\(result.totCnt)", location: "the search for \(query)")
        }
        let trimmed = { (text: String) in text.trimmingCharacters(in: .whitespaces) }
        var movies: [MovieSummary] = []
        for movie in result.movieList.prefix(max(limit, 0)) {
            let field = KobisField(location: "movie \(trimmed(movie.movieCd))")
            movies.append(
                MovieSummary(
                    movieCode: trimmed(movie.movieCd),
                    title: trimmed(movie.movieNm),
                    englishTitle: trimmed(movie.movieNmEn ?? ""),
                    productionYear: try field.optionalInt(movie.prdtYear ?? "", "prdtYear"),
                    openDate: try field.optionalDay(movie.openDt ?? "", "openDt", dashed: false),
                    genres: (movie.genreAlt ?? "").split(separator: ",").map { trimmed(String($0)) }
                        .filter { !$0.isEmpty },
                    directors: (movie.directors ?? []).map { trimmed($0.peopleNm) }.filter { !$0.isEmpty }))
        }
        // A server that counts fewer matches than it sent is believed about the matches it sent.
        self.init(query: query, totalCount: max(result.totCnt, result.movieList.count), movies: movies)
    }
}

/// Parses KOBIS's string fields, naming the field and location when one is not valid.
private struct KobisField {
    let location: String

    func int(_ text: String, _ name: String) throws(KobisMappingError) -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else { throw failure(name, text) }
        return value
    }

    func int64(_ text: String, _ name: String) throws(KobisMappingError) -> Int64 {
        guard let value = Int64(text.trimmingCharacters(in: .whitespaces)) else { throw failure(name, text) }
        return value
    }

    func double(_ text: String, _ name: String) throws(KobisMappingError) -> Double {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
            throw failure(name, text)
        }
        return value
    }

    func optionalInt(_ text: String, _ name: String) throws(KobisMappingError) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : try int(trimmed, name)
    }

    func optionalDay(_ text: String, _ name: String, dashed: Bool) throws(KobisMappingError) -> Day? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        do {
            return dashed ? try Day(dashed: trimmed) : try Day(compact: trimmed)
        } catch {
            throw failure(name, text)
        }
    }

    private func failure(_ name: String, _ value: String) -> KobisMappingError {
        KobisMappingError(field: name, value: value, location: location)
    }
}
