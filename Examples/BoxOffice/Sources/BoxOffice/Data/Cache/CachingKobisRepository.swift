import CacheKit
import Foundation

/// KOBIS's past charts and films' details, kept on disk through CacheKit as `Codable` values: a second
/// `daily --date 2024-01-01` or `movie <code>` needs no network, and says the value came from the cache.
///
/// It wraps the repository that fetches (the decorator pattern), so nothing above it changes: the
/// composition root registers it for `BoxOfficeRepository` and `MovieRepository`. How long each value
/// stays is ``CachePolicy``'s; today's chart is never cached. Entries are keyed by the service's base URL
/// too, so a run against another server (a test server, a mirror) never reads this one's values. No key
/// of the run is ever written: keys are not part of entries' keys, and a value carrying one (a hostile
/// server echoing it in a title) is returned but not kept. When the folder cannot be used, values are
/// kept in memory for the run only, and `warn` is told once.
public final class CachingKobisRepository: BoxOfficeRepository, MovieRepository {
    private let origin: any BoxOfficeRepository & MovieRepository
    private let charts: TieredStore<CachedChart>
    private let movies: TieredStore<CachedMovie>
    private let scope: String
    private let now: @Sendable () -> Date
    private let secrets: [String]

    /// Creates the repository.
    /// - Parameters:
    ///   - origin: Where values come from on a miss.
    ///   - directory: The folder the caches keep their files in (`charts/` and `movies/` below it).
    ///   - scope: What the values belong to, such as the service's base URL; part of every entry's key.
    ///   - clock: The caches' time source; the system clock by default.
    ///   - now: Today's date, for which charts are final; the system's by default.
    ///   - secrets: The run's API keys: a value carrying one is not kept. None by default.
    ///   - warn: Told once, in words, when the folder cannot be used.
    public init(
        origin: any BoxOfficeRepository & MovieRepository, directory: URL, scope: String,
        clock: CacheClock = .system, now: @escaping @Sendable () -> Date = { Date() },
        secrets: [String] = [], warn: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.origin = origin
        self.secrets = secrets.filter { !$0.isEmpty }
        self.scope = scope
        self.now = now
        let failures = WriteFailures { problem in
            warn("the data cache could not keep a value, so charts and details may not be kept: \(problem)")
        }
        let (charts, chartProblem) = TieredStore<CachedChart>.make(
            memory: MemoryStorage(configuration: .init(countLimit: 64, sweepInterval: nil), clock: clock),
            disk: .init(directory: directory.appendingPathComponent("charts"), sizeLimit: 20 * 1024 * 1024),
            below: directory.deletingLastPathComponent(), clock: clock, failures: failures)
        let (movies, movieProblem) = TieredStore<CachedMovie>.make(
            memory: MemoryStorage(configuration: .init(countLimit: 256, sweepInterval: nil), clock: clock),
            disk: .init(directory: directory.appendingPathComponent("movies"), sizeLimit: 20 * 1024 * 1024),
            below: directory.deletingLastPathComponent(), clock: clock, failures: failures)
        self.charts = charts
        self.movies = movies
        if let problem = chartProblem ?? movieProblem {
            warn("the data cache folder cannot be used, so charts and details are not kept: \(problem)")
        }
    }

    /// The chart for `day`: from the cache while it is fresh, else from the origin, then kept as
    /// ``CachePolicy/chartExpiration(for:today:isEmpty:savedAt:)`` says (and ``CachePolicy/fallbackTime``
    /// longer, to answer when KOBIS fails). A kept chart past its freshness is the answer when KOBIS
    /// refuses the request or cannot be reached, saying why (``DataOrigin/cacheAfterFailure(savedAt:failure:)``).
    public func dailyBoxOffice(for day: Day) async throws -> DailyBoxOffice {
        let today = Day.inKorea(at: now())
        guard CachePolicy.chartExpiration(for: day, today: today, isEmpty: false, savedAt: now()) != nil
        else {
            return try await origin.dailyBoxOffice(for: day)
        }
        if let (kept, _) = await charts.cached(forKey: chartKey(day)), !kept.isFresh(at: now()) {
            do {
                return try await refreshedDailyBoxOffice(for: day)
            } catch {
                guard let failure = Self.fallbackReason(error), kept.isTrusted(at: now()) else { throw error }
                return kept.chart(origin: .cacheAfterFailure(savedAt: kept.savedAt, failure: failure))
            }
        }
        do {
            let (cached, source) = try await charts.value(forKey: chartKey(day)) {
                [origin, now, secrets] in
                let chart = try Self.dated(
                    try await origin.dailyBoxOffice(for: day), day: day, today: today, at: now())
                try NotKept.unless(chart.value, carries: secrets)
                return chart
            }
            return cached.chart(origin: source == .network ? .network : .cache(savedAt: cached.savedAt))
        } catch let notKept as NotKept<CachedChart> {
            return notKept.value.chart(origin: .network)
        }
    }

    /// The chart for `day` from the origin, past the cache, which then keeps it in place of what it held
    /// (unless it carries a key, is today's, or is empty where the kept one has rows).
    public func refreshedDailyBoxOffice(for day: Day) async throws -> DailyBoxOffice {
        let today = Day.inKorea(at: now())
        let chart = try Self.dated(
            try await origin.dailyBoxOffice(for: day), day: day, today: today, at: now())
        // An empty answer (a glitch) never replaces a chart with rows: that one stays for a later look.
        let replacesRows =
            chart.value.entries.isEmpty
            ? await charts.cached(forKey: chartKey(day)).map { !$0.0.entries.isEmpty } ?? false : false
        if let expiration = chart.diskExpiration, !replacesRows,
            (try? NotKept.unless(chart.value, carries: secrets)) != nil
        {
            await charts.store(chart.value, forKey: chartKey(day), expiration: expiration)
        }
        return chart.value.chart(origin: .network)
    }

    private func chartKey(_ day: Day) -> String { "\(scope) chart \(day.compact)" }

    /// `chart` as kept: fresh as the policy says, and kept ``CachePolicy/fallbackTime`` longer.
    private static func dated(_ chart: DailyBoxOffice, day: Day, today: Day, at savedAt: Date) throws
        -> LoadedValue<CachedChart>
    {
        let expiration = CachePolicy.chartExpiration(
            for: day, today: today, isEmpty: chart.entries.isEmpty, savedAt: savedAt)
        let freshUntil = expiration?.expirationDate(from: savedAt)
        return LoadedValue(
            CachedChart(chart, savedAt: savedAt, freshUntil: freshUntil),
            expiration: freshUntil.map { .date($0.addingTimeInterval(CachePolicy.fallbackTime)) })
    }

    /// The details of `code`: from the cache while they are fresh, else from the origin, then kept for
    /// ``CachePolicy/movieExpiration(savedAt:)`` (and ``CachePolicy/fallbackTime`` longer). Kept details
    /// past their freshness answer when KOBIS fails, saying why. A code carrying one of the run's keys is
    /// refused.
    public func movieDetails(code: String) async throws -> MovieDetails {
        // A code carrying a key (a hostile chart's row) would go into a cache file's key, and to KOBIS.
        guard !CarriedSecrets(secrets).appear(in: code) else {
            throw BoxOfficeError.refused("the film code carries an API key, so it was not looked up")
        }
        let key = "\(scope) movie \(code)"
        let load: @Sendable () async throws -> LoadedValue<CachedMovie> = { [origin, now, secrets] in
            let savedAt = now()
            let freshUntil = CachePolicy.movieExpiration(savedAt: savedAt).expirationDate(from: savedAt)
            let movie = CachedMovie(
                details: try await origin.movieDetails(code: code), savedAt: savedAt, freshUntil: freshUntil)
            try NotKept.unless(movie, carries: secrets)
            return LoadedValue(
                movie, expiration: .date(freshUntil.addingTimeInterval(CachePolicy.fallbackTime)))
        }
        do {
            if let (kept, _) = await movies.cached(forKey: key), !kept.isFresh(at: now()) {
                do {
                    let fresh = try await load()
                    await movies.store(
                        fresh.value, forKey: key, expiration: fresh.diskExpiration ?? .days(30))
                    return fresh.value.details
                } catch let notKept as NotKept<CachedMovie> {
                    throw notKept
                } catch {
                    guard let failure = Self.fallbackReason(error), kept.isTrusted(at: now()) else {
                        throw error
                    }
                    var details = kept.details
                    details.origin = .cacheAfterFailure(savedAt: kept.savedAt, failure: failure)
                    return details
                }
            }
            let (cached, source) = try await movies.value(forKey: key, orLoad: load)
            var details = cached.details
            details.origin = source == .network ? .network : .cache(savedAt: cached.savedAt)
            return details
        } catch let notKept as NotKept<CachedMovie> {
            return notKept.value.details
        }
    }

    /// What a kept value past its freshness may stand in for, said for a person as it happened: KOBIS
    /// refusing the request with its own error ("KOBIS refused the request: KOBIS error 320010: …", a
    /// revoked key), failing ("KOBIS failed: HTTP 500 from …"), or not being reached; `nil` for anything
    /// else (an answer the app cannot read, a film KOBIS does not have, cancellation).
    static func fallbackReason(_ error: any Error) -> String? {
        switch error {
        case BoxOfficeError.refused(let message): "KOBIS refused the request: \(message)"
        case BoxOfficeError.failed(let message): "KOBIS failed: \(message)"
        case BoxOfficeError.unreachable(let message): "KOBIS could not be reached: \(message)"
        default: nil
        }
    }
}

/// A fetched value that must not be written to the cache because it carries one of the run's keys;
/// thrown out of the cache's loader (so nothing is stored) and caught to return the value itself.
struct NotKept<Value: Encodable & Sendable>: Error {
    let value: Value

    /// Throws `NotKept(value)` when `value`'s JSON carries one of `secrets`, whole or in part
    /// (``KeyFragments``), as is or as JSON would write it inside a string.
    static func unless(_ value: Value, carries secrets: [String]) throws {
        guard !secrets.isEmpty else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let json = (try? encoder.encode(value)) ?? Data()
        // Each key also as the encoder writes it inside a string (a `"` or `\` escaped), quotes dropped.
        let escaped = secrets.compactMap { secret -> String? in
            guard let quoted = try? encoder.encode(secret), quoted.count > 2 else { return nil }
            return String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self)
        }
        if !KeyFragments(secrets + escaped).ranges(in: Array(json)).isEmpty { throw NotKept(value: value) }
    }
}
