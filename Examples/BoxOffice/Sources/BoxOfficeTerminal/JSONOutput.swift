import BoxOffice
import Foundation

/// The JSON printed by `--json`: the command-line contract, with explicit nulls. Every string from outside
/// is scrubbed of the run's keys one by one, so a value ending in part of a key is cut there, as on the
/// terminal (scrubbing the whole text would miss a partial key followed by a closing quote).
enum JSONOutput {
    /// Where ``render(_:scrub:)`` leaves the scrubbing function for the values' `encode(to:)`.
    static let scrubberKey = CodingUserInfoKey(rawValue: "boxoffice.scrub")!

    /// The scrubbing function an encoder carries; the identity when it carries none.
    static func scrubber(_ encoder: any Encoder) -> @Sendable (String) -> String {
        encoder.userInfo[scrubberKey] as? @Sendable (String) -> String ?? { $0 }
    }

    struct Daily: Encodable {
        let date: String
        let movies: [Row]
        let origin: Origin
    }

    /// Where an answer came from: `{"source", "savedAt", "failure"}`. `source` is `network`, `cache`
    /// (fresh, no request), `cacheAfterFailure` (kept past its freshness, shown because the service
    /// failed) or `demo`; `savedAt` is when a cached value was saved (ISO 8601, UTC), else `null`;
    /// `failure` is `null`, or `{"kind", "code", "message"}` for `cacheAfterFailure`: `kind` is
    /// `refused` (the API's own error, `code` its number, such as `"320010"`), `failed` (a `5xx`, `code`
    /// the status) or `unreachable` (`code` `null`).
    struct Origin: Encodable {
        let origin: DataOrigin
        let isDemo: Bool

        enum CodingKeys: String, CodingKey { case source, savedAt, failure }
        enum FailureKeys: String, CodingKey { case kind, code, message }

        func encode(to encoder: any Encoder) throws {
            let clean = JSONOutput.scrubber(encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            let source: String
            switch origin {
            case _ where isDemo: source = "demo"
            case .network: source = "network"
            case .cache: source = "cache"
            case .cacheAfterFailure: source = "cacheAfterFailure"
            }
            try container.encode(source, forKey: .source)
            let formatter = ISO8601DateFormatter()
            try container.encode(origin.savedAt.map(formatter.string(from:)), forKey: .savedAt)
            guard case .cacheAfterFailure(_, let failure) = origin else {
                try container.encodeNil(forKey: .failure)
                return
            }
            var nested = container.nestedContainer(keyedBy: FailureKeys.self, forKey: .failure)
            let (kind, code) = Self.kindAndCode(of: failure)
            try nested.encode(kind, forKey: .kind)
            try nested.encode(code, forKey: .code)
            try nested.encode(clean(failure), forKey: .message)
        }

        /// The failure's kind, read from the words the data layer says it with, and its code: KOBIS's
        /// error number for a refusal, the HTTP status for a failure.
        static func kindAndCode(of failure: String) -> (kind: String, code: String?) {
            func number(after marker: String) -> String? {
                guard let range = failure.range(of: marker) else { return nil }
                let digits = failure[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
                return digits.isEmpty ? nil : String(digits)
            }
            if failure.hasPrefix("KOBIS refused") { return ("refused", number(after: "KOBIS error ")) }
            if failure.hasPrefix("KOBIS failed") { return ("failed", number(after: "HTTP ")) }
            return ("unreachable", nil)
        }
    }

    struct Row: Encodable {
        let entry: DailyBoxOfficeEntry

        enum CodingKeys: String, CodingKey {
            case rank, rankChange, isNew, movieCode, title, openDate, audienceCount, audienceAccumulated
            case salesAmount, salesAccumulated, salesShare, screenCount, showCount
        }

        func encode(to encoder: any Encoder) throws {
            let clean = JSONOutput.scrubber(encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(entry.rank, forKey: .rank)
            try container.encode(entry.rankChange, forKey: .rankChange)
            try container.encode(entry.isNew, forKey: .isNew)
            try container.encode(clean(entry.movieCode), forKey: .movieCode)
            try container.encode(clean(entry.title), forKey: .title)
            try container.encode(entry.openDate?.dashed, forKey: .openDate)
            try container.encode(entry.audienceCount, forKey: .audienceCount)
            try container.encode(entry.audienceAccumulated, forKey: .audienceAccumulated)
            try container.encode(entry.salesAmount, forKey: .salesAmount)
            try container.encode(entry.salesAccumulated, forKey: .salesAccumulated)
            try container.encode(entry.salesShare, forKey: .salesShare)
            try container.encode(entry.screenCount, forKey: .screenCount)
            try container.encode(entry.showCount, forKey: .showCount)
        }
    }

    struct Movie: Encodable {
        let movie: MovieDetails
        let poster: Poster?
        let isDemo: Bool

        enum CodingKeys: String, CodingKey {
            case movieCode, title, englishTitle, openDate, runtimeMinutes, productionYear, genres, directors
            case actors, nations, watchGrade, companies, poster, origin
        }

        enum PosterKeys: String, CodingKey {
            case url, file, source
        }

        func encode(to encoder: any Encoder) throws {
            let clean = JSONOutput.scrubber(encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(clean(movie.movieCode), forKey: .movieCode)
            try container.encode(clean(movie.title), forKey: .title)
            try container.encode(clean(movie.englishTitle), forKey: .englishTitle)
            try container.encode(movie.openDate?.dashed, forKey: .openDate)
            try container.encode(movie.runtimeMinutes, forKey: .runtimeMinutes)
            try container.encode(movie.productionYear, forKey: .productionYear)
            try container.encode(movie.genres.map(clean), forKey: .genres)
            try container.encode(movie.directors.map(clean), forKey: .directors)
            try container.encode(movie.actors.map(clean), forKey: .actors)
            try container.encode(movie.nations.map(clean), forKey: .nations)
            try container.encode(movie.watchGrade.map(clean), forKey: .watchGrade)
            try container.encode(movie.companies.map(clean), forKey: .companies)
            try container.encode(Origin(origin: movie.origin, isDemo: isDemo), forKey: .origin)
            if let poster {
                var nested = container.nestedContainer(keyedBy: PosterKeys.self, forKey: .poster)
                try nested.encode(clean(poster.url.absoluteString), forKey: .url)
                try nested.encode(poster.file.map { clean($0.path) }, forKey: .file)
                try nested.encode(poster.source.rawValue, forKey: .source)
            } else {
                try container.encodeNil(forKey: .poster)
            }
        }
    }

    /// `search --json`: `{"query", "total", "movies": [...]}`.
    struct Search: Encodable {
        let query: String
        let total: Int
        let movies: [Found]

        enum CodingKeys: String, CodingKey { case query, total, movies }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(JSONOutput.scrubber(encoder)(query), forKey: .query)
            try container.encode(total, forKey: .total)
            try container.encode(movies, forKey: .movies)
        }
    }

    struct Found: Encodable {
        let movie: MovieSummary

        enum CodingKeys: String, CodingKey {
            case movieCode, title, englishTitle, productionYear, openDate, genres, directors
        }

        func encode(to encoder: any Encoder) throws {
            let clean = JSONOutput.scrubber(encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(clean(movie.movieCode), forKey: .movieCode)
            try container.encode(clean(movie.title), forKey: .title)
            try container.encode(clean(movie.englishTitle), forKey: .englishTitle)
            try container.encode(movie.productionYear, forKey: .productionYear)
            try container.encode(movie.openDate?.dashed, forKey: .openDate)
            try container.encode(movie.genres.map(clean), forKey: .genres)
            try container.encode(movie.directors.map(clean), forKey: .directors)
        }
    }

    /// `value` as pretty-printed JSON with sorted keys, each string from outside passed through `scrub`.
    static func render(_ value: some Encodable, scrub: @escaping @Sendable (String) -> String) throws
        -> String
    {
        let encoder = JSONEncoder()
        encoder.userInfo[scrubberKey] = scrub
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // JSONEncoder escapes C0 control characters itself; C1 ones and bidi overrides are escaped here,
        // so the JSON stays valid and no title from a server can drive the terminal it is printed on.
        return TerminalText.escapingControls(
            inJSON: String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
