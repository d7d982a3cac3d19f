import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every request the HTTP cache lets through to the session asks URLCache nothing (Apple platforms keep
/// one in front of a session by default): on each of its ways out.
@Suite("HTTP cache: what it sends never asks URLCache")
struct HTTPCacheURLCacheTests {
    /// A provider with a cache, over a session answering `control` and noting each request's policy.
    func provider(answering control: String, url: URL, policies: Locked<[URLRequest.CachePolicy]>) throws
        -> NetworkProvider
    {
        let answer = try #require(
            HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Cache-Control": control, "ETag": "\"v1\""]))
        var configuration = NetworkProvider.Configuration()
        configuration.httpCache = HTTPCache()
        return NetworkProvider(
            session: StubSession { request in
                policies.withLock { $0.append(request.cachePolicy) }
                return (Data("v1".utf8), answer)
            }, configuration: configuration)
    }

    @Test(arguments: ["max-age=0", "no-store"])
    func aRequestAskedAgainOrNotStoredIgnoresURLCache(_ control: String) async throws {
        // Given a cache in front of a session that notes each request's cache policy
        let url = try #require(URL(string: "https://api.example.com/movies/8"))
        let policies = Locked([URLRequest.CachePolicy]())
        let provider = try provider(answering: control, url: url, policies: policies)
        // When a request is sent twice (stored and revalidated, or not stored and sent again)
        _ = try await provider.send(Endpoint<Data>(url: url))
        _ = try await provider.send(Endpoint<Data>(url: url))
        // Then both went out ignoring URLCache
        #expect(policies.withLock { $0 } == [.reloadIgnoringLocalCacheData, .reloadIgnoringLocalCacheData])
    }

    @Test func aRequestTheCacheStaysOutOfIgnoresURLCache() async throws {
        // Given a cache in front of a session that notes each request's cache policy
        let url = try #require(URL(string: "https://api.example.com/movies/9"))
        let policies = Locked([URLRequest.CachePolicy]())
        let provider = try provider(answering: "max-age=60", url: url, policies: policies)
        // When a request the cache bypasses (its own no-store) is sent
        _ = try await provider.send(Endpoint<Data>(url: url, headers: ["Cache-Control": "no-store"]))
        // Then it went out ignoring URLCache
        #expect(policies.withLock { $0 } == [.reloadIgnoringLocalCacheData])
    }

    @Test func aBackgroundRevalidationIgnoresURLCache() async throws {
        // Given a stale answer the server allows to be served while it is revalidated
        let url = try #require(URL(string: "https://api.example.com/movies/10"))
        let policies = Locked([URLRequest.CachePolicy]())
        let provider = try provider(
            answering: "max-age=0, stale-while-revalidate=600", url: url, policies: policies)
        _ = try await provider.send(Endpoint<Data>(url: url))
        // When it is asked for again, served stale and refreshed in the background
        let second = try await provider.response(for: Endpoint<Data>(url: url))
        guard case .cache(_, isFresh: false) = second.source else {
            Issue.record("expected a stale answer from the cache, got \(second.source)")
            return
        }
        // Then the refresh went out ignoring URLCache too
        #expect(await eventually { policies.withLock { $0.count } == 2 })
        #expect(policies.withLock { $0 } == [.reloadIgnoringLocalCacheData, .reloadIgnoringLocalCacheData])
    }
}
