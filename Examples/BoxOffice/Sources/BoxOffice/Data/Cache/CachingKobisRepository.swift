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

    /// The chart for `day`: from the cache when it holds one, else from the origin, then kept as
    /// ``CachePolicy/chartExpiration(for:today:isEmpty:savedAt:)`` says.
    public func dailyBoxOffice(for day: Day) async throws -> DailyBoxOffice {
        let today = Day.inKorea(at: now())
        guard CachePolicy.chartExpiration(for: day, today: today, isEmpty: false, savedAt: now()) != nil
        else {
            return try await origin.dailyBoxOffice(for: day)
        }
        do {
            let (cached, source) = try await charts.value(forKey: chartKey(day)) {
                [origin, now, secrets] in
                let chart = CachedChart(try await origin.dailyBoxOffice(for: day), savedAt: now())
                try NotKept.unless(chart, carries: secrets)
                return LoadedValue(
                    chart,
                    expiration: CachePolicy.chartExpiration(
                        for: day, today: today, isEmpty: chart.entries.isEmpty, savedAt: chart.savedAt))
            }
            return cached.chart(origin: source == .network ? .network : .cache(savedAt: cached.savedAt))
        } catch let notKept as NotKept<CachedChart> {
            return notKept.value.chart(origin: .network)
        }
    }

    /// The chart for `day` from the origin, past the cache, which then keeps it in place of what it held
    /// (unless it carries a key, or is today's).
    public func refreshedDailyBoxOffice(for day: Day) async throws -> DailyBoxOffice {
        let today = Day.inKorea(at: now())
        let chart = CachedChart(try await origin.dailyBoxOffice(for: day), savedAt: now())
        if let expiration = CachePolicy.chartExpiration(
            for: day, today: today, isEmpty: chart.entries.isEmpty, savedAt: chart.savedAt),
            (try? NotKept.unless(chart, carries: secrets)) != nil
        {
            await charts.store(chart, forKey: chartKey(day), expiration: expiration)
        }
        return chart.chart(origin: .network)
    }

    private func chartKey(_ day: Day) -> String { "\(scope) chart \(day.compact)" }

    /// The details of `code`: from the cache when it holds them, else from the origin, then kept for
    /// ``CachePolicy/movieExpiration(savedAt:)``. A code carrying one of the run's keys is refused.
    public func movieDetails(code: String) async throws -> MovieDetails {
        // A code carrying a key (a hostile chart's row) would go into a cache file's key, and to KOBIS.
        guard !CarriedSecrets(secrets).appear(in: code) else {
            throw BoxOfficeError.refused("the film code carries an API key, so it was not looked up")
        }
        do {
            let (cached, source) = try await movies.value(forKey: "\(scope) movie \(code)") {
                [origin, now, secrets] in
                let movie = CachedMovie(details: try await origin.movieDetails(code: code), savedAt: now())
                try NotKept.unless(movie, carries: secrets)
                return LoadedValue(movie, expiration: CachePolicy.movieExpiration(savedAt: movie.savedAt))
            }
            var details = cached.details
            details.origin = source == .network ? .network : .cache(savedAt: cached.savedAt)
            return details
        } catch let notKept as NotKept<CachedMovie> {
            return notKept.value.details
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
