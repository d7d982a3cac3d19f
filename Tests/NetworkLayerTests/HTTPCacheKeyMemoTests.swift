import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the cache keeps of the keys it made (``CacheKey/Memo``): the same key as one worked out again,
/// a new one as soon as ``Credentials`` says something new, and nothing left after `removeAll()`.
@Suite("HTTP cache: the key memo")
struct HTTPCacheKeyMemoTests {
    func request(_ text: String, headers: [String: String] = [:]) throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: text)))
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// An answer fresh for a minute.
    func freshAnswer(for url: URL) throws -> HTTPURLResponse {
        try #require(
            HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Cache-Control": "max-age=60"]))
    }

    /// A provider with `cache`, over a session that answers `url` with ``freshAnswer(for:)``.
    func provider(with cache: HTTPCache, answering url: URL) throws -> NetworkProvider {
        let answer = try freshAnswer(for: url)
        var configuration = NetworkProvider.Configuration()
        configuration.httpCache = cache
        return NetworkProvider(
            session: StubSession { _ in (Data("{}".utf8), answer) }, configuration: configuration)
    }

    @Test(
        arguments: [
            ("https://api.example.com/movies/1", [:], nil),
            ("https://API.example.com:8443/m;jsessionid=abc/x?page=2&serviceKey=k1", [:], nil),
            ("https://user:pass@api.example.com/a?b=c", ["Authorization": "Bearer token-1"], nil),
            ("https://api.example.com/movies?query=%ED%95%9C", ["Accept-Language": "ko"], "alice"),
        ] as [(String, [String: String], String?)])
    func aKeptKeyIsTheKeyWorkedOutAgain(_ url: String, headers: [String: String], partition: String?) throws {
        // Given a memo that has seen the request once
        let memo = CacheKey.Memo()
        let request = try request(url, headers: headers)
        let first = try #require(CacheKey(request, partition: partition, memo: memo))
        // When the key is made again from it, and without it
        let kept = try #require(CacheKey(request, partition: partition, memo: memo))
        let fresh = try #require(CacheKey(request, partition: partition))
        // Then all three are the same key
        #expect(first == fresh)
        #expect(kept == fresh)
    }

    @Test func aURLRelativeToABaseHasTheKeyOfItsAbsoluteForm() throws {
        // Given a URL relative to a base, and the same URL written whole
        let base = try #require(URL(string: "https://api.example.com/v1/"))
        let relative = URLRequest(url: try #require(URL(string: "movies/1?page=2", relativeTo: base)))
        let whole = try request("https://api.example.com/v1/movies/1?page=2")
        let otherBase = try #require(URL(string: "https://other.example/v1/"))
        let other = URLRequest(url: try #require(URL(string: "movies/1?page=2", relativeTo: otherBase)))
        // When their keys are made, with one memo and without
        let memo = CacheKey.Memo()
        let kept = try #require(CacheKey(relative, memo: memo))
        let keptOther = try #require(CacheKey(other, memo: memo))
        let fresh = try #require(CacheKey(relative))
        // Then each is the whole URL's key, and the same relative text on another host is another key
        let expected = try #require(CacheKey(whole))
        #expect(kept == expected)
        #expect(fresh == expected)
        #expect(keptOther != kept)
    }

    @Test func aValueDeclaredAfterAKeyWasKeptMakesANewKey() throws {
        // Given a key kept for a URL whose path carries a token nobody declared yet
        let memo = CacheKey.Memo()
        let token = "BOT-\(UUID().uuidString)"
        let request = try request("https://api.example.com/bot\(token)/getUpdates")
        let before = try #require(CacheKey(request, memo: memo))
        try #require(before.value.hasPrefix("public"))
        // When the token is declared
        Credentials.declare(value: token)
        // Then the next key is the one worked out now: the token's path is no longer public
        let after = try #require(CacheKey(request, memo: memo))
        #expect(after == CacheKey(request))
        #expect(!after.value.hasPrefix("public"))
    }

    @Test func aNameDeclaredAfterAKeyWasKeptMakesANewKey() throws {
        // Given a key kept for a URL with a query item whose name gives no hint
        let memo = CacheKey.Memo()
        let name = "p\(UUID().uuidString.prefix(8))"
        let request = try request("https://api.example.com/list?\(name)=one")
        let before = try #require(CacheKey(request, memo: memo))
        try #require(before.value.hasPrefix("public"))
        // When that name is declared a credential's
        Credentials.declare(queryNames: [name])
        // Then the item leaves the address for the partition, as in a key worked out now
        let after = try #require(CacheKey(request, memo: memo))
        #expect(after == CacheKey(request))
        #expect(after.address != before.address)
    }

    @Test func theMemoHoldsAtMostItsLimitOfEach() throws {
        // Given a memo
        let memo = CacheKey.Memo()
        var largest = (locations: 0, digests: 0)
        // When it sees more URLs, each with a credential header, than it holds
        for index in 0..<(CacheKey.Memo.limit * 2 + 3) {
            let request = try request(
                "https://api.example.com/items/\(index)", headers: ["Authorization": "Bearer t-\(index)"])
            _ = CacheKey(request, memo: memo)
            largest = (max(largest.locations, memo.locationCount), max(largest.digests, memo.digestCount))
        }
        // Then it never held more than its limit of locations, nor of digests, and holds the newest
        #expect(largest.locations == CacheKey.Memo.limit)
        #expect(largest.digests == CacheKey.Memo.limit)
        #expect(memo.locationCount == 3)
        #expect(memo.digestCount == 3)
    }

    @Test func aURLLongerThanTheLongestTextIsNotKept() throws {
        // Given a memo, and a URL of more than 2 KiB
        let memo = CacheKey.Memo()
        let long = try request("https://api.example.com/search?q=" + String(repeating: "a", count: 4_096))
        // When its key is made
        let key = try #require(CacheKey(long, memo: memo))
        // Then it is the key worked out without the memo, and the memo holds nothing of it
        #expect(key == CacheKey(long))
        #expect(memo.locationCount == 0)
    }

    @Test func removeAllLeavesNoKeyInTheMemo() async throws {
        // Given a cache that answered a request carrying a token
        let cache = HTTPCache()
        let url = try #require(URL(string: "https://api.example.com/me"))
        let provider = try provider(with: cache, answering: url)
        _ = try await provider.send(
            Endpoint<Data>(url: url, headers: ["Authorization": "Bearer abc-123-xyz"]))
        try #require(cache.keys.locationCount + cache.keys.digestCount > 0)
        // When the app logs out
        cache.removeAll()
        // Then the memo holds nothing of it
        #expect(cache.keys.locationCount + cache.keys.digestCount == 0)
    }

    @Test func aRequestBegunAfterRemoveAllIsKeptAgain() async throws {
        // Given a cache that ran removeAll() twice
        let cache = HTTPCache()
        let url = try #require(URL(string: "https://api.example.com/me"))
        let provider = try provider(with: cache, answering: url)
        cache.removeAll()
        cache.removeAll()
        // When a request carrying a token begins afterwards
        _ = try await provider.send(
            Endpoint<Data>(url: url, headers: ["Authorization": "Bearer abc-123-xyz"]))
        // Then the memo keeps its location and its partition's digest
        #expect(cache.keys.locationCount == 1)
        #expect(cache.keys.digestCount == 1)
    }

    @Test func aRequestBegunBeforeRemoveAllLeavesNothingInTheMemo() async throws {
        // Given a cache, and a request carrying a token that began before the app logged out
        let cache = HTTPCache()
        let url = try #require(URL(string: "https://api.example.com/me?api_key=k-123456789"))
        let answer = try freshAnswer(for: url)
        let exchange = CacheExchange(
            cache: cache, policy: .useProtocol, asSent: { $0 }, accepts: { _, _ in true })
        cache.removeAll()
        // When its attempt reaches the cache afterwards (a retry after its backoff)
        var request = URLRequest(url: url)
        request.setValue("Bearer abc-123-xyz", forHTTPHeaderField: "Authorization")
        _ = try await cache.answer(
            request, exchange: exchange, next: { _ in (Data(), answer) }, refresh: { _ in (Data(), answer) })
        // Then the memo kept none of its texts
        #expect(cache.keys.locationCount + cache.keys.digestCount == 0)
    }
}
