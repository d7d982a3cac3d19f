import Foundation

/// One film's row in a day's box office.
public struct DailyBoxOfficeEntry: Hashable, Sendable, Codable {
    /// The rank that day, from 1.
    public let rank: Int
    /// The change from the day before: positive when the film rose. 0 for a new entry.
    public let rankChange: Int
    /// Whether the film entered the chart that day.
    public let isNew: Bool
    /// The KOBIS movie code, for the details.
    public let movieCode: String
    /// The title, trimmed.
    public let title: String
    /// The release date, or `nil` when KOBIS gives none (re-releases).
    public let openDate: Day?
    /// Admissions that day.
    public let audienceCount: Int
    /// Admissions since release.
    public let audienceAccumulated: Int
    /// Sales that day, in won.
    public let salesAmount: Int64
    /// Sales since release, in won.
    public let salesAccumulated: Int64
    /// The share of that day's sales, in percent.
    public let salesShare: Double
    /// Screens that showed the film that day.
    public let screenCount: Int
    /// Showings that day.
    public let showCount: Int

    /// Creates an entry.
    public init(
        rank: Int, rankChange: Int, isNew: Bool, movieCode: String, title: String, openDate: Day?,
        audienceCount: Int, audienceAccumulated: Int, salesAmount: Int64, salesAccumulated: Int64,
        salesShare: Double, screenCount: Int, showCount: Int
    ) {
        self.rank = rank
        self.rankChange = rankChange
        self.isNew = isNew
        self.movieCode = movieCode
        self.title = title
        self.openDate = openDate
        self.audienceCount = audienceCount
        self.audienceAccumulated = audienceAccumulated
        self.salesAmount = salesAmount
        self.salesAccumulated = salesAccumulated
        self.salesShare = salesShare
        self.screenCount = screenCount
        self.showCount = showCount
    }
}

/// A day's box office.
public struct DailyBoxOffice: Hashable, Sendable {
    /// The day.
    public let day: Day
    /// The films in rank order: at most ``maximumEntries``.
    public let entries: [DailyBoxOfficeEntry]
    /// How many rows the service sent beyond ``maximumEntries``, which the app dropped.
    public let omittedEntries: Int
    /// Where the chart came from on this run.
    public var origin: DataOrigin

    /// The most films a daily chart holds: KOBIS's daily box office is a top ten, and every film shown
    /// can cost two more requests (details and a poster), so a server sending more is cut here.
    public static let maximumEntries = 10

    /// Creates a day's chart, holding at most ``maximumEntries`` films whatever it is made from (a
    /// server's answer or a cache file): past that, the best ranks are kept (the first given among equal
    /// ranks) and the rest counted in ``omittedEntries``.
    /// - Parameters:
    ///   - day: The day.
    ///   - entries: The films in rank order.
    ///   - omittedEntries: Rows already dropped; none by default. A negative count is 0, and the total
    ///     saturates at `Int.max`.
    ///   - origin: Where it came from; the network by default.
    public init(
        day: Day, entries: [DailyBoxOfficeEntry], omittedEntries: Int = 0, origin: DataOrigin = .network
    ) {
        self.day = day
        var kept = entries
        if entries.count > Self.maximumEntries {
            kept = entries.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }
                .prefix(Self.maximumEntries).map(\.element)
        }
        self.entries = kept
        let (total, overflow) = max(omittedEntries, 0).addingReportingOverflow(entries.count - kept.count)
        self.omittedEntries = overflow ? .max : total
        self.origin = origin
    }
}

/// What KOBIS knows about one film.
public struct MovieDetails: Hashable, Sendable, Codable {
    /// The KOBIS movie code.
    public let movieCode: String
    /// The Korean title, trimmed.
    public let title: String
    /// The English title.
    public let englishTitle: String
    /// The release date, or `nil` when KOBIS gives none.
    public let openDate: Day?
    /// The running time in minutes, or `nil` when unknown.
    public let runtimeMinutes: Int?
    /// The production year, or `nil` when unknown.
    public let productionYear: Int?
    /// Genre names.
    public let genres: [String]
    /// Directors' names.
    public let directors: [String]
    /// Actors' names, in KOBIS's order.
    public let actors: [String]
    /// Production countries.
    public let nations: [String]
    /// The rating (`15세이상관람가`), or `nil` when not rated.
    public let watchGrade: String?
    /// Distributors and other companies, with their part.
    public let companies: [String]
    /// Where the details came from on this run. Not encoded: a decoded copy says `.network` until its
    /// reader sets it.
    public var origin: DataOrigin = .network

    enum CodingKeys: String, CodingKey {
        case movieCode, title, englishTitle, openDate, runtimeMinutes, productionYear, genres, directors
        case actors, nations, watchGrade, companies
    }

    /// Creates details.
    public init(
        movieCode: String, title: String, englishTitle: String, openDate: Day?, runtimeMinutes: Int?,
        productionYear: Int?, genres: [String], directors: [String], actors: [String], nations: [String],
        watchGrade: String?, companies: [String], origin: DataOrigin = .network
    ) {
        self.origin = origin
        self.movieCode = movieCode
        self.title = title
        self.englishTitle = englishTitle
        self.openDate = openDate
        self.runtimeMinutes = runtimeMinutes
        self.productionYear = productionYear
        self.genres = genres
        self.directors = directors
        self.actors = actors
        self.nations = nations
        self.watchGrade = watchGrade
        self.companies = companies
    }
}

/// Where a poster came from on this run.
public enum PosterSource: String, Sendable, Codable, Hashable {
    /// The in-memory cache.
    case memory
    /// The on-disk cache, fresh: no request.
    case disk
    /// The network (search and download).
    case network
    /// The on-disk cache, confirmed by the image's host with `304 Not Modified`.
    case revalidated
    /// The on-disk cache, stale, because the image's host could not be reached.
    case stale
    /// The on-disk cache, past its freshness, shown without asking its host (a policy that accepts any
    /// age).
    case outOfDate
    /// Generated for the demo (no Kakao key, or `--offline`): no image host was asked.
    case demo
    /// The on-disk cache, stale, because the image's host failed (answered `5xx`).
    case staleAfterHostFailure

    /// Where it came from, for a person: "from the network", "from disk, confirmed by its host", ….
    public var phrase: String {
        switch self {
        case .memory: "from memory"
        case .disk: "from disk"
        case .network: "from the network"
        case .revalidated: "from disk, confirmed by its host"
        case .stale: "from disk, out of date: its host could not be reached"
        case .outOfDate: "from disk, out of date"
        case .demo: "generated for the demo"
        case .staleAfterHostFailure: "from disk, out of date: its host failed"
        }
    }
}

/// A film's poster: its bytes, and where they are cached.
public struct Poster: Hashable, Sendable {
    /// Where the image was downloaded from.
    public let url: URL
    /// The cached image file, which holds the image's bytes from the start, so it opens as an image;
    /// `nil` when the image is not on disk (the cache folder cannot be used).
    public let file: URL?
    /// The image's bytes: a PNG, JPEG, GIF or WebP file, checked by the data layer.
    public let imageData: Data
    /// Where this run got it.
    public let source: PosterSource

    /// The image's size in bytes.
    public var byteCount: Int { imageData.count }

    /// The image's media type (`image/png`, `image/jpeg`, `image/gif`, `image/webp`).
    public var mediaType: String? { Self.mediaType(of: imageData) }

    /// The media type of `data` from its first bytes: a PNG, JPEG, GIF or WebP file; `nil` for anything
    /// else.
    public static func mediaType(of data: Data) -> String? {
        let bytes = [UInt8](data.prefix(12))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        return nil
    }

    /// Creates a poster.
    public init(url: URL, file: URL?, imageData: Data, source: PosterSource) {
        self.url = url
        self.file = file
        self.imageData = imageData
        self.source = source
    }
}
