import CacheKit
import Foundation

/// A day's chart as the disk cache keeps it (JSON, through CacheKit's `Codable` path), with when it was
/// fetched.
struct CachedChart: Codable, DataConvertible, Sendable {
    let day: Day
    let entries: [DailyBoxOfficeEntry]
    let omittedEntries: Int
    let savedAt: Date
    /// Until when it is used without asking KOBIS; past it, it is kept (for ``CachePolicy/fallbackTime``)
    /// only to answer when KOBIS fails. `nil` in entries written before this field: fresh while kept.
    var freshUntil: Date?

    init(_ chart: DailyBoxOffice, savedAt: Date, freshUntil: Date? = nil) {
        day = chart.day
        entries = chart.entries
        omittedEntries = chart.omittedEntries
        self.savedAt = savedAt
        self.freshUntil = freshUntil
    }

    /// The chart, saying it came from `origin`.
    func chart(origin: DataOrigin) -> DailyBoxOffice {
        DailyBoxOffice(day: day, entries: entries, omittedEntries: omittedEntries, origin: origin)
    }
}

/// A film's details as the disk cache keeps them, with when they were fetched.
struct CachedMovie: Codable, DataConvertible, Sendable {
    let details: MovieDetails
    let savedAt: Date
    /// Until when it is used without asking KOBIS, as ``CachedChart/freshUntil``.
    var freshUntil: Date?
}

/// A cached value that may be past its freshness.
protocol FreshnessDated {
    var savedAt: Date { get }
    var freshUntil: Date? { get }
}

/// How far ahead of now a save time may be and still be believed: 5 minutes of clock drift.
let clockDriftAllowance: TimeInterval = 5 * 60

extension FreshnessDated {
    /// Whether it is used at `now` without asking KOBIS: before its freshness ends, and saved no later
    /// than now (give or take ``clockDriftAllowance``).
    func isFresh(at now: Date) -> Bool { isTrusted(at: now) && (freshUntil.map { now < $0 } ?? true) }

    /// Whether its save time can be believed at `now`. A value saved while the clock ran ahead (three
    /// days, say) took yesterday's chart, which KOBIS may still correct, for final and would be kept a
    /// year: it is neither used fresh nor shown when KOBIS fails, and the next answer replaces it.
    func isTrusted(at now: Date) -> Bool { savedAt <= now.addingTimeInterval(clockDriftAllowance) }
}

extension CachedChart: FreshnessDated {}
extension CachedMovie: FreshnessDated {}

/// How long a cached value stays: the part of the caching rules that depends only on dates. Deadlines
/// are fixed when the value is saved: reading a value does not keep it longer.
enum CachePolicy {
    /// How long a chart for `day` fetched at `savedAt` on `today` (both days in Korea) is kept, or `nil`
    /// when it is not cached at all.
    ///
    /// - Two days ago and earlier: KOBIS's numbers for the day are final, so a year (the disk cache's
    ///   size limit evicts the least recently used first).
    /// - Yesterday: KOBIS may still correct the day's numbers: an hour.
    /// - Today and later: KOBIS has no numbers yet (it aggregates up to yesterday): not cached.
    /// - A past chart that came back empty (a day KOBIS does not cover, or a glitch): an hour.
    static func chartExpiration(for day: Day, today: Day, isEmpty: Bool, savedAt: Date) -> CacheExpiration? {
        guard day < today else { return nil }
        if isEmpty || day == today.previous { return .date(savedAt.addingTimeInterval(3600)) }
        return .date(savedAt.addingTimeInterval(365 * 86_400))
    }

    /// How long a value is kept past its freshness, to answer when KOBIS refuses the request or cannot be
    /// reached: 30 days. Such an answer says so, naming KOBIS's error (a revoked key's 320010).
    static let fallbackTime: TimeInterval = 30 * 86_400

    /// How long a film's details fetched at `savedAt` are kept: 30 days. A film's details rarely change
    /// once it has opened; a month lets a correction through.
    static func movieExpiration(savedAt: Date) -> CacheExpiration {
        .date(savedAt.addingTimeInterval(30 * 86_400))
    }
}
