import Foundation
import TestSupport

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The fixture server's `/cached` resource.
struct CachedResource: Decodable, Equatable, Sendable {
    let id: String
    let version: Int
    let lang: String
}

/// The headers one `/cached` request carried.
struct LoggedCacheRequest: Decodable, Equatable, Sendable {
    let ifNoneMatch: String
    let ifModifiedSince: String
    let authorization: String
    let cacheControl: String
}

/// A session that forwards to `URLSession` until the test takes the device offline; then every request
/// fails as an offline iPhone's does, with `URLError(.notConnectedToInternet)`.
final class OfflineSwitch: NetworkSessionType {
    private let session: URLSession
    private let offline = Locked(false)
    private let sent = Locked(0)

    init(_ session: URLSession = URLSession(configuration: .ephemeral)) { self.session = session }

    func goOffline() { offline.withLock { $0 = true } }

    /// How many requests were tried while offline.
    var offlineAttempts: Int { sent.withLock { $0 } }

    func response(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        if offline.withLock({ $0 }) {
            sent.withLock { $0 += 1 }
            throw URLError(.notConnectedToInternet)
        }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }
}

/// The HTTP cache tests' world: the fixture server, a provider with an `HTTPCache` on a clock the test
/// moves, and a fresh resource id per test.
struct CacheWorld {
    let server: TestServer
    let date = ManualClock(Date())
    let store: MemoryHTTPCacheStore
    let cache: HTTPCache
    let id = UUID().uuidString

    init(store: MemoryHTTPCacheStore = MemoryHTTPCacheStore()) async throws {
        server = try await TestServer.shared.value
        self.store = store
        let date = date
        cache = HTTPCache(store: store, now: { date.now })
    }

    /// A provider on `session` with this world's cache.
    func provider(
        session: any NetworkSessionType = URLSession(configuration: .ephemeral),
        middlewares: [any NetworkMiddleware] = []
    ) -> NetworkProvider {
        var configuration = NetworkProvider.Configuration()
        configuration.httpCache = cache
        return NetworkProvider(session: session, middlewares: middlewares, configuration: configuration)
    }

    /// `/cached` with this world's id and `query`.
    func resource(_ query: [String: String] = [:], policy: CachePolicy = .useProtocol) -> Endpoint<
        CachedResource
    > {
        var endpoint: Endpoint<CachedResource> = EndpointGroup(baseURL: server.baseURL).get(
            "cached", query: query.merging(["id": id]) { first, _ in first })
        endpoint.cachePolicy = policy
        return endpoint
    }

    /// The headers of each request the server received for this world's resource.
    func log() async throws -> [LoggedCacheRequest] {
        try await Self.log(of: id, on: server)
    }

    /// The headers of each request `server` received for the resource `id`.
    static func log(of id: String, on server: TestServer) async throws -> [LoggedCacheRequest] {
        struct Log: Decodable { let requests: [LoggedCacheRequest] }
        let url = server.baseURL.appendingPathComponent("cached-log")
        let (data, _) = try await URLSession.shared.data(from: URL(string: "\(url.absoluteString)?id=\(id)")!)
        return try JSONDecoder().decode(Log.self, from: data).requests
    }

    /// Makes the server's resource a new version, or answer `status`.
    func change(version: Int? = nil, status: Int = 200) async throws {
        let url = server.baseURL.appendingPathComponent("cached-set")
        let version = version.map { "&version=\($0)" } ?? ""
        _ = try await URLSession.shared.data(
            from: URL(string: "\(url.absoluteString)?id=\(id)&status=\(status)\(version)")!)
    }
}

/// HTTP dates (IMF-fixdate) for the server to send.
enum HTTPDates {
    static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
