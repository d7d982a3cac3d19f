import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Whose answer is whose: credentials the session adds, cookies, an app's own partition, secrets in
/// header values and paths, and a logout's `removeAll()` racing a request in flight.
@Suite("HTTP cache: partitions and logout")
struct HTTPCachePartitionTests {
    @Test func credentialsTheSessionAddsKeepUsersApart() async throws {
        // Given Alice's session, whose configuration adds her token, and a fresh answer stored for her
        let world = try await CacheWorld()
        let alice = URLSessionConfiguration.ephemeral
        alice.httpAdditionalHeaders = ["Authorization": "Bearer ALICE-\(UUID().uuidString)"]
        _ = try await world.provider(session: URLSession(configuration: alice)).send(
            world.resource(["cc": "max-age=100"]))
        // When Bob's session, adding his token, asks for the same URL through the same cache
        let bob = URLSessionConfiguration.ephemeral
        bob.httpAdditionalHeaders = ["Authorization": "Bearer BOB-\(UUID().uuidString)"]
        let bobs = try await world.provider(session: URLSession(configuration: bob))
            .response(for: world.resource(["cc": "max-age=100"]))
        // Then Bob's answer comes from the server
        #expect(bobs.source.isFromCache == false)
        #expect(try await world.log().count == 2)
    }

    @Test func cookiesTheSessionSendsKeepUsersApart() async throws {
        // Given a session whose cookie storage holds Alice's session cookie, and her answer stored
        let world = try await CacheWorld()
        let session = URLSession(configuration: .ephemeral)
        let storage = try #require(session.configuration.httpCookieStorage)
        try setCookie("session", "ALICE", on: world.server, in: storage)
        let provider = world.provider(session: session)
        _ = try await provider.send(world.resource(["cc": "private, max-age=100"]))
        // When Alice logs out and Bob logs in on the same session
        for cookie in storage.cookies ?? [] { storage.deleteCookie(cookie) }
        try setCookie("session", "BOB", on: world.server, in: storage)
        let bobs = try await provider.response(for: world.resource(["cc": "private, max-age=100"]))
        // Then Bob's answer comes from the server, not from Alice's
        #expect(bobs.source.isFromCache == false)
    }

    @Test func credentialsOfAConfigurationTheProviderOwnsKeepUsersApart() async throws {
        // Given providers made from Alice's and Bob's session configurations, sharing one cache
        let world = try await CacheWorld()
        func provider(token: String) -> NetworkProvider {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpAdditionalHeaders = ["Authorization": "Bearer \(token)-\(UUID().uuidString)"]
            var options = NetworkProvider.Configuration()
            options.httpCache = world.cache
            return NetworkProvider(sessionConfiguration: configuration, configuration: options)
        }
        _ = try await provider(token: "ALICE").send(world.resource(["cc": "max-age=100"]))
        // When Bob's provider asks for the same URL
        let bobs = try await provider(token: "BOB").response(for: world.resource(["cc": "max-age=100"]))
        // Then Bob's answer comes from the server
        #expect(bobs.source.isFromCache == false)
    }

    @Test func anAppsPartitionKeepsAnswersAcrossTokenRefreshes() async throws {
        // Given a cache told whose answers they are, and a token refreshed between two requests
        let server = try await TestServer.shared.value
        let date = ManualClock(Date())
        let cache = HTTPCache(partition: { _ in "user-42" }, now: { date.now })
        var configuration = NetworkProvider.Configuration()
        configuration.httpCache = cache
        let token = Locked("TOKEN-1-\(UUID().uuidString)")
        let group = EndpointGroup(baseURL: server.baseURL)
        let provider = NetworkProvider(
            session: URLSession(configuration: .ephemeral),
            middlewares: [AuthorizationMiddleware(for: group) { token.withLock { $0 } }],
            configuration: configuration)
        let endpoint: Endpoint<CachedResource> = group.get(
            "cached", query: ["id": UUID().uuidString, "cc": "max-age=100"])
        _ = try await provider.send(endpoint)
        // When the token is refreshed and the same user asks again
        token.withLock { $0 = "TOKEN-2-\(UUID().uuidString)" }
        let again = try await provider.response(for: endpoint)
        // Then the answer kept for the user is used
        #expect(again.source.isFromCache)
    }

    @Test func aCredentialInAHeaderValueIsNotStored() async throws {
        // Given an answer whose Link header carries the request's ?serviceKey=
        let store = HTTPCacheSecretsTests.KeepingStore()
        let secret = "SK-\(UUID().uuidString)"
        let url = try #require(URL(string: "https://api.example.com/list?page=1"))
        let http = try #require(
            HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: [
                    "Cache-Control": "max-age=60",
                    "Link": "<https://api.example.com/list?page=2&serviceKey=\(secret)>; rel=\"next\"",
                ]))
        var configuration = NetworkProvider.Configuration()
        configuration.httpCache = HTTPCache(store: store)
        let provider = NetworkProvider(
            session: StubSession { _ in (Data("{}".utf8), http) }, configuration: configuration)
        // When it is stored
        _ = try await provider.send(Endpoint<Data>(url: url))
        // Then the secret is in no stored byte
        #expect(store.kept.withLock { $0.count } == 1)
        #expect(!store.everything.contains(secret))
    }

    @Test func aDeclaredValueInThePathIsInNoKey() async throws {
        // Given a bot API whose token travels in the path, declared to Credentials
        let token = "BOT-\(UUID().uuidString)"
        Credentials.declare(value: token)
        var request = URLRequest(
            url: try #require(URL(string: "https://api.example.com/bot\(token)/getUpdates")))
        request.httpMethod = "GET"
        // When its key is made
        let key = try #require(CacheKey(request)).value
        // Then the token is not in it, and the partition is not public
        #expect(!key.contains(token))
        #expect(!key.hasPrefix("public"))
    }

    @Test func removeAllDropsAnAnswerStillInFlight() async throws {
        // Given a request whose answer is held until the test lets it go
        let gate = AsyncGate()
        let url = try #require(URL(string: "https://api.example.com/me"))
        let http = try #require(
            HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Cache-Control": "max-age=60"]))
        let store = MemoryHTTPCacheStore()
        let cache = HTTPCache(store: store)
        var configuration = NetworkProvider.Configuration()
        configuration.httpCache = cache
        let provider = NetworkProvider(
            session: StubSession { _ in
                await gate.enter()
                return (Data("{}".utf8), http)
            }, configuration: configuration)
        let inFlight = Task { try await provider.send(Endpoint<Data>(url: url)) }
        await gate.waitUntilEntered()
        // When the user logs out while it is in flight, then it answers
        cache.removeAll()
        gate.open()
        _ = try await inFlight.value
        // Then nothing of it was stored
        #expect(store.count == 0)
    }
}

/// Puts the cookie `name=value` for `server`'s host into `storage`.
/// Puts a cookie for `server` into `storage`.
func setCookie(_ name: String, _ value: String, on server: TestServer, in storage: HTTPCookieStorage)
    throws
{
    let cookie = try #require(
        HTTPCookie(properties: [
            .name: name, .value: value, .domain: "127.0.0.1", .path: "/", .originURL: server.baseURL,
        ]))
    storage.setCookie(cookie)
}
