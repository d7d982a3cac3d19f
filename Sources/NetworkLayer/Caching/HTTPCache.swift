import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A private HTTP cache (RFC 9111) for a ``NetworkProvider``'s whole-body `GET`s, over a store the app
/// chooses: fresh answers without a request, stale ones revalidated with `ETag` / `Last-Modified`,
/// `stale-while-revalidate`, `stale-if-error`, and answers that say where they came from
/// (``NetworkResponse/source``).
///
/// ```swift
/// let cache = HTTPCache(store: MemoryHTTPCacheStore(byteLimit: 20 << 20))
/// var configuration = NetworkProvider.Configuration()
/// configuration.httpCache = cache
/// let provider = NetworkProvider(middlewares: [RetryMiddleware()], configuration: configuration)
/// ```
///
/// It runs as the innermost step of the provider's chain, after every middleware (so it sees the
/// request with its credentials) and before the transport; each attempt a middleware makes goes
/// through it. Answers to requests that carried credentials are kept apart by a digest of those
/// credentials (with a `URLSession`, the headers and cookies the session adds too), so one user's answer
/// is never served to another; an app whose tokens rotate names the user instead (`partition`). Only
/// answers the endpoint accepted (status, `validate` hook, decoding) are stored. Streams, downloads and
/// uploads do not use it.
///
/// Credentials a session answers a challenge with (a `URLCredential` from its delegate) are not seen
/// here: give such an app a `partition`, or a cache per user. At logout, call ``removeAll()``: a write
/// that began before it is dropped.
public final class HTTPCache: Sendable {
    /// What the cache has done since it was made (OkHttp's counts).
    public struct Statistics: Sendable, Hashable {
        /// `GET`s that consulted the cache.
        public var requestCount = 0
        /// Requests that reached the network (a conditional request included).
        public var networkCount = 0
        /// Requests answered with a stored body: fresh, stale, or confirmed by a `304`.
        public var hitCount = 0
        /// Requests the server answered with `304 Not Modified`.
        public var conditionalHitCount = 0
    }

    /// Where the answers are kept.
    public let store: any HTTPCacheStore
    /// The fraction of the time since `Last-Modified` an answer without `max-age` or `Expires` stays
    /// fresh (RFC 9111 section 4.2.2), at most a day.
    public let heuristicFraction: Double
    /// What time it is; tests inject one.
    let now: @Sendable () -> Date
    /// Who an answer belongs to, when the app says (see ``init(store:heuristicFraction:partition:now:)``).
    let partition: (@Sendable (URLRequest) -> String?)?
    private let counts = Locked(Statistics())
    private let refreshing = Locked(Set<String>())
    /// What hits read of stored answers, by key: a fresh hit of the same version of an answer reuses its
    /// freshness fields, and for the same URL its `HTTPURLResponse` (immutable), instead of reading the
    /// headers and building a response again (which capitalizes every header name on Linux). At most
    /// ``readingLimit``, forgotten all at once when full.
    let readings = Locked([String: StoredReading]())
    /// The most readings ``readings`` keeps: 256.
    static let readingLimit = 256
    /// The keys' locations and digests worked out so far (the requests' credentials among them, in
    /// memory only), forgotten by ``removeAll()``.
    let keys = CacheKey.Memo()
    /// How many times ``removeAll()`` ran: a write that began before the latest is dropped.
    private let generation = Locked(0)

    /// Creates a cache.
    /// - Parameters:
    ///   - store: Where answers are kept; a 10 MiB ``MemoryHTTPCacheStore`` by default.
    ///   - heuristicFraction: 0.1 by default; clamped to `0...1` (NaN is 0.1).
    ///   - partition: Who the answer to a request belongs to (a user's id), or `nil` for the default: the
    ///     SHA-256 of the credentials the request carries. Name the user when the credentials change
    ///     while the user stays (an access token refreshed every hour would otherwise leave every earlier
    ///     answer out of reach, offline included), or when they are added where the cache cannot see them
    ///     (a challenge's `URLCredential`). `nil` (none) by default.
    ///   - now: The clock; `Date.init` by default. Tests pass their own.
    public init(
        store: any HTTPCacheStore = MemoryHTTPCacheStore(), heuristicFraction: Double = 0.1,
        partition: (@Sendable (URLRequest) -> String?)? = nil, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.heuristicFraction = heuristicFraction.isNaN ? 0.1 : min(max(heuristicFraction, 0), 1)
        self.partition = partition
        self.now = now
    }

    /// The counts so far.
    public var statistics: Statistics { counts.withLock { $0 } }

    /// Removes every stored answer; an answer whose request began before this call is not stored after
    /// it (call it at logout).
    public func removeAll() {
        let started = generation.withLock { generation in
            generation += 1
            return generation
        }
        keys.removeAll(startingGeneration: started)
        forgetStoredReadings()
        store.removeAll()
        // A hit that ran meanwhile may have kept a reading again (one begun before this call no longer
        // keeps what it read: `response(for:at:key:in:reading:)` checks the generation).
        forgetStoredReadings()
    }

    /// Empties ``readings``, releasing them after unlocking.
    private func forgetStoredReadings() {
        let forgotten = readings.withLock { readings in
            defer { readings = [:] }
            return readings
        }
        withExtendedLifetime(forgotten) {}
    }

    /// The current generation, taken when a request begins.
    var currentGeneration: Int { generation.withLock { $0 } }

    /// Stores `response` under `key`, unless ``removeAll()`` ran since `started`, or (with `replacing`) the
    /// answer stored there is no longer the one a `304` confirmed: a newer answer stored meanwhile stays.
    /// The old answer is removed first, so one the store refuses to keep (too large) is not served
    /// instead.
    func store(
        _ response: CachedHTTPResponse, forKey key: String, startedIn started: Int,
        replacing confirmed: CachedHTTPResponse? = nil
    ) {
        guard currentGeneration == started else { return }
        if let confirmed {
            guard let current = store.response(forKey: key), current.isSameVersion(as: confirmed) else {
                return
            }
        }
        store.removeResponse(forKey: key)
        store.store(response, forKey: key)
        // A removeAll() that ran while it was written may have missed it.
        if currentGeneration != started { store.removeResponse(forKey: key) }
    }

    /// Counts what a request did.
    func count(_ change: (inout Statistics) -> Void) {
        counts.withLock { change(&$0) }
    }

    /// Whether a background revalidation of `key` may start: `false` while one runs.
    func beginRefreshing(_ key: String) -> Bool {
        refreshing.withLock { $0.insert(key).inserted }
    }

    /// Marks the background revalidation of `key` ended.
    func endRefreshing(_ key: String) {
        _ = refreshing.withLock { $0.remove(key) }
    }

    /// How many background revalidations run now (for tests).
    var refreshingCount: Int { refreshing.withLock { $0.count } }
}

/// What the cache read of one stored version (its body left out): its freshness fields, and the
/// response made of it for a URL, once one was.
struct StoredReading: Sendable {
    let stored: CachedHTTPResponse
    let fields: FreshnessFields
    var made: (url: URL, response: HTTPURLResponse)?
}
