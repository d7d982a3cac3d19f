import Benchmark
import CacheKit
import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The HTTP cache (Docs/NetworkLayer.md, "Caching and offline"): bytes on the wire for a resource revalidated on
// every use, a 304 against a full fetch, a fresh hit against a CacheKit memory hit of the same body, and
// an offline answer with the default RetryMiddleware in the chain.

/// The wire bytes nginx sent for an iteration's ten fetches, headers included.
let wireBytes = BenchmarkMetric.custom(
    "bytes on the wire", polarity: .prefersSmaller, useScalingFactor: false)

/// A provider on `session` with an HTTP cache of its own (in memory), and `middlewares`.
func cachingProvider(
    session: any NetworkSessionType, middlewares: [any NetworkMiddleware] = [], cache: HTTPCache = HTTPCache()
) -> NetworkProvider {
    var configuration = NetworkProvider.Configuration()
    configuration.httpCache = cache
    return NetworkProvider(session: session, middlewares: middlewares, configuration: configuration)
}

/// The rows against nginx's `/mib.bin`: 1 MiB with an ETag and `max-age=0`.
func httpCacheWireBenchmarks(nginx: NginxServer, configuration: URLSessionConfiguration) {
    let session = URLSession(configuration: configuration)
    let mebibyte = Endpoint<Data>(baseURL: nginx.baseURL, path: "mib.bin")
    let request = URLRequest(url: nginx.baseURL.appendingPathComponent("mib.bin"))
    let wire = Benchmark.Configuration(
        metrics: [.wallClock, wireBytes], scalingFactor: .one, maxDuration: .seconds(smoke ? 1 : 5),
        maxIterations: smoke ? 1 : 10)

    /// Runs `fetch` ten times and records what nginx sent meanwhile.
    func tenFetches(_ benchmark: Benchmark, _ fetch: () async throws -> Void) async throws {
        let before = nginx.mebibyteBytesSent()
        for _ in 0..<10 { try await fetch() }
        // nginx writes a request's log line after its last byte; the client may have it first.
        var sent = nginx.mebibyteBytesSent() - before
        for _ in 0..<100 where nginx.mebibyteBytesSent() - before != sent {
            sent = nginx.mebibyteBytesSent() - before
        }
        benchmark.measurement(wireBytes, sent)
    }

    Benchmark(
        "HTTP cache, nginx, 10 fetches of 1 MiB (max-age=0, ETag): NetworkProvider + HTTPCache",
        configuration: wire
    ) {
        benchmark in
        let provider = cachingProvider(session: session)
        try await tenFetches(benchmark) { blackHole(try await provider.send(mebibyte)) }
    }
    Benchmark(
        "HTTP cache, nginx, 10 fetches of 1 MiB (max-age=0, ETag): NetworkProvider, no cache",
        configuration: wire
    ) {
        benchmark in
        let provider = NetworkProvider(session: session)
        try await tenFetches(benchmark) { blackHole(try await provider.send(mebibyte)) }
    }
    // URLSession's own URLCache on the same workload. On Linux, FoundationNetworking stores nothing in it
    // (every response is reported not storable), so this row shows what it does there: ten full bodies.
    Benchmark(
        "HTTP cache, nginx, 10 fetches of 1 MiB (max-age=0, ETag): URLSession + URLCache", configuration: wire
    ) {
        benchmark in
        let cached = URLSessionConfiguration.default
        #if canImport(FoundationNetworking)
            cached.urlCache = URLCache(memoryCapacity: 64 << 20, diskCapacity: 0, diskPath: nil)
        #else
            cached.urlCache = URLCache(memoryCapacity: 64 << 20, diskCapacity: 0, directory: nil)
        #endif
        cached.requestCachePolicy = .useProtocolCachePolicy
        let withURLCache = URLSession(configuration: cached)
        try await tenFetches(benchmark) { blackHole(try await withURLCache.data(for: request)) }
    }

    // One fetch each: a 304 (the entry stored before the clock starts) against the full 200.
    let fetch = Benchmark.Configuration(
        metrics: [.wallClock], scalingFactor: .one, maxDuration: .seconds(smoke ? 1 : 3),
        maxIterations: smoke ? 1 : 500)
    let revalidating = cachingProvider(session: session)
    Benchmark("HTTP cache, nginx, one fetch of 1 MiB: revalidated (304)", configuration: fetch) { benchmark in
        _ = try await revalidating.send(mebibyte)
        benchmark.startMeasurement()
        blackHole(try await revalidating.send(mebibyte))
    }
    // The floor: URLSession sending the same conditional request itself, for the same 304.
    Benchmark("HTTP cache, nginx, one fetch of 1 MiB: URLSession conditional GET (304)", configuration: fetch)
    {
        benchmark in
        let (_, response) = try await session.data(for: request)
        var conditional = request
        conditional.setValue(
            (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "ETag"),
            forHTTPHeaderField: "If-None-Match")
        benchmark.startMeasurement()
        blackHole(try await session.data(for: conditional))
    }
    let plain = NetworkProvider(session: session)
    Benchmark("HTTP cache, nginx, one fetch of 1 MiB: full (200)", configuration: fetch) { _ in
        blackHole(try await plain.send(mebibyte))
    }
}

/// The rows without a server: a fresh hit against a CacheKit memory hit, and an offline answer.
func httpCacheLocalBenchmarks() {
    guard let url = URL(string: "https://api.example.com/movies/1"),
        let fresh = HTTPURLResponse(
            url: url, statusCode: 200, httpVersion: "HTTP/1.1",
            headerFields: ["Cache-Control": "max-age=31536000", "Content-Type": "application/json"])
    else { fatalError("the fresh response could not be built") }
    let body = Data(#"{"title":"Wonka","year":2023}"#.utf8)
    let endpoint = Endpoint<Data>(url: url)
    let hits = cachingProvider(session: StubSession { _ in (body, fresh) })
    let memory = MemoryStorage<String, Data>()
    memory.store(body, forKey: url.absoluteString)
    let perHit = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(smoke ? 1 : 2),
        maxIterations: smoke ? 1 : 500)
    Benchmark("HTTP cache, fresh hit: NetworkProvider + HTTPCache", configuration: perHit) { benchmark in
        _ = try await hits.send(endpoint)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try await hits.send(endpoint)) }
    }
    Benchmark("HTTP cache, fresh hit: CacheKit MemoryStorage", configuration: perHit) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(memory.value(forKey: url.absoluteString)) }
    }

    // Offline, with the default RetryMiddleware (3 attempts, 0.5 s then 1 s of backoff) in the chain: the
    // stored answer, an hour stale and accepted for a day, comes at once; without it, the retries run.
    let offline = StubSession.failing(URLError(.notConnectedToInternet))
    let clock = OfflineClock()
    let stale = cachingProvider(
        session: StubSession { request in
            clock.online ? (body, fresh) : try await offline.response(for: request)
        }, middlewares: [RetryMiddleware()], cache: HTTPCache(now: { clock.now }))
    var accepting = Endpoint<Data>(url: url)
    accepting.cachePolicy = .useProtocol.acceptingStaleOnError(upTo: .seconds(86_400))
    let offlineRows = Benchmark.Configuration(
        metrics: [.wallClock], scalingFactor: .one, maxDuration: .seconds(smoke ? 1 : 4),
        maxIterations: smoke ? 1 : 200)
    Benchmark(
        "HTTP cache, offline with a stale entry: NetworkProvider + HTTPCache + RetryMiddleware",
        configuration: offlineRows
    ) {
        benchmark in
        clock.reset()
        _ = try await stale.send(accepting)
        clock.goOffline(afterSeconds: 31_536_000 + 3_600)
        benchmark.startMeasurement()
        blackHole(try await stale.send(accepting))
    }
    let uncached = NetworkProvider(session: offline, middlewares: [RetryMiddleware()])
    Benchmark(
        "HTTP cache, offline with a stale entry: NetworkProvider + RetryMiddleware, no cache",
        configuration: offlineRows
    ) {
        _ in
        blackHole(try? await uncached.send(accepting))
    }
}

/// The offline rows' world: online and at a fixed time, then offline a year and an hour later.
final class OfflineClock: @unchecked Sendable {
    // @unchecked Sendable: `state` is only read and written while holding `lock`.
    private let lock = NSLock()
    private var state = (online: true, now: Date(timeIntervalSince1970: 1_800_000_000))

    var online: Bool { lock.withLock { state.online } }
    var now: Date { lock.withLock { state.now } }

    func reset() { lock.withLock { state = (true, Date(timeIntervalSince1970: 1_800_000_000)) } }

    func goOffline(afterSeconds seconds: TimeInterval) {
        lock.withLock { state = (false, state.now.addingTimeInterval(seconds)) }
    }
}
