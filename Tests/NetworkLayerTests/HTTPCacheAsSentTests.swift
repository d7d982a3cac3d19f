import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cache judges the request as the session sends it (its configuration's headers, every cookie it
/// attaches), keeps CFNetwork's own `URLCache` away from credentials, and reports a failure in
/// cache-then-network without a backoff.
@Suite("HTTP cache: the request as sent")
struct HTTPCacheAsSentTests {
    /// Stores Alice's private answer, varying on Cookie, while the session's `uid` cookie is hers (the
    /// request setting `ownCookie` too, when given), then changes the cookie to Bob's and asks again.
    private func bobsAnswerAfterAlicesCookie(ownCookie: String?) async throws -> ResponseSource {
        let world = try await CacheWorld()
        let session = URLSession(configuration: .ephemeral)
        let storage = try #require(session.configuration.httpCookieStorage)
        try setCookie("uid", "alice", on: world.server, in: storage)
        let provider = world.provider(session: session)
        var endpoint = world.resource(["cc": "private, max-age=100", "vary": "Cookie"])
        if let ownCookie { endpoint.headers["Cookie"] = ownCookie }
        _ = try await provider.send(endpoint)
        try setCookie("uid", "bob", on: world.server, in: storage)
        return try await provider.response(for: endpoint).source
    }

    @Test func aVaryCookieAnswerIsNotServedAfterTheSessionsCookieChanges() async throws {
        // Given Alice's private answer, varying on Cookie, stored while the session's cookie was hers
        // When the session's cookie becomes Bob's and he asks
        let bobs = try await bobsAnswerAfterAlicesCookie(ownCookie: nil)
        // Then Bob's answer comes from the server
        #expect(bobs.isFromCache == false)
    }

    @Test func aRequestSettingItsOwnCookieStillCountsTheSessionsCookies() async throws {
        // Given the same, with a request that sets a Cookie of its own
        // When the session's cookie becomes Bob's and he asks
        let bobs = try await bobsAnswerAfterAlicesCookie(ownCookie: "consent=1")
        // Then Bob's answer comes from the server
        #expect(bobs.isFromCache == false)
    }

    @Test func cacheThenNetworkStillRetriesALostConnection() async throws {
        // Given a stored answer, and a network step whose first attempt loses its connection
        let origin = ScriptedOrigin()
        origin.answer(
            .init(headers: ["Cache-Control": "max-age=0"]), .init(error: URLError(.networkConnectionLost)),
            .init(headers: ["Cache-Control": "max-age=0"]))
        let waits = Recorder<Duration>()
        let provider = origin.provider(middlewares: [RetryMiddleware(sleep: { waits.append($0) })])
        _ = try await provider.send(origin.film())
        // When cache-then-network runs
        var sources: [Bool] = []
        for try await answer in provider.responses(for: origin.film()) {
            sources.append(answer.source.isFromCache)
        }
        // Then the lost connection was retried once and the network's answer came
        #expect(sources == [true, false])
        #expect(waits.values.count == 1)
    }

    @Test func sessionsWithOtherLanguagesGetTheirOwnVariant() async throws {
        // Given two sessions sharing one cache, one Korean and one English, set in their configurations
        let world = try await CacheWorld()
        func session(_ language: String) -> URLSession {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpAdditionalHeaders = ["Accept-Language": language]
            return URLSession(configuration: configuration)
        }
        let query = ["cc": "max-age=100", "vary": "Accept-Language"]
        _ = try await world.provider(session: session("ko")).send(world.resource(query))
        // When the English session asks for the same URL
        let english = try await world.provider(session: session("en")).response(for: world.resource(query))
        // Then it gets the English body, from the server
        #expect(english.value.lang == "en")
        #expect(english.source.isFromCache == false)
    }

    @Test func everyCookieTheSessionSendsSplitsAnswersUnlessTheAppNamesTheUser() async throws {
        // Given a session whose cookie (named like no credential) changes between two requests
        let world = try await CacheWorld()
        let session = URLSession(configuration: .ephemeral)
        let storage = try #require(session.configuration.httpCookieStorage)
        try setCookie("AWSALB", "one", on: world.server, in: storage)
        let provider = world.provider(session: session)
        _ = try await provider.send(world.resource(["cc": "max-age=100"]))
        try setCookie("AWSALB", "two", on: world.server, in: storage)
        // When the same URL is asked for
        let again = try await provider.response(for: world.resource(["cc": "max-age=100"]))
        // Then the answer stored under the other cookie is not used
        #expect(again.source.isFromCache == false)
    }

    @Test func theProvidersSessionKeepsNoAnswerToACredentialedRequestInURLCache() throws {
        // Given the provider's own session, with the system's URLCache
        let transfers = try #require(DelegateSession(like: URLSession(configuration: .default)))
        let url = try #require(URL(string: "https://api.example.com/films?page=1"))
        let proposed = CachedURLResponse(
            response: try #require(
                HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: [:])),
            data: Data("{}".utf8))
        func offered(_ request: URLRequest) -> CachedURLResponse? {
            let kept = Locked<CachedURLResponse?>(nil)
            transfers.delegate.urlSession(
                transfers.session, dataTask: transfers.session.dataTask(with: request),
                willCacheResponse: proposed
            ) { answer in kept.withLock { $0 = answer } }
            return kept.withLock { $0 }
        }
        // When CFNetwork offers answers to requests with and without credentials
        var bearer = URLRequest(url: url)
        bearer.setValue("Bearer T", forHTTPHeaderField: "Authorization")
        var apiKey = URLRequest(url: url)
        apiKey.setValue("K", forHTTPHeaderField: "X-Api-Key")
        let keyed = URLRequest(url: try #require(URL(string: "https://api.example.com/films?serviceKey=S")))
        let userInfo = URLRequest(url: try #require(URL(string: "https://u:p@api.example.com/films")))
        // Then only the request without one may be cached
        #expect(offered(URLRequest(url: url)) != nil)
        for request in [bearer, apiKey, keyed, userInfo] {
            #expect(offered(request) == nil, "\(request.url!) \(request.allHTTPHeaderFields ?? [:])")
        }
    }

    @Test func aRequestCarryingADeclaredValueOrACookieIsKeptOutOfURLCache() throws {
        // Given a declared token in a path, and a cookie storage holding a cookie for a host
        let token = "TOKEN-\(UUID().uuidString)"
        Credentials.declare(value: token)
        let storage = HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: UUID().uuidString)
        storage.setCookie(
            try #require(
                HTTPCookie(properties: [
                    .name: "uid", .value: "1", .domain: "cookies.example.com", .path: "/",
                ])))
        // When / Then
        let path = URLRequest(url: try #require(URL(string: "https://api.example.com/bot\(token)/me")))
        #expect(TransferDelegate.mayEnterURLCache(path, cookies: nil) == false)
        let cookied = URLRequest(url: try #require(URL(string: "https://cookies.example.com/a")))
        #expect(TransferDelegate.mayEnterURLCache(cookied, cookies: storage) == false)
        #expect(TransferDelegate.mayEnterURLCache(cookied, cookies: nil))
    }

    @Test func cacheThenNetworkReportsARefusedConnectionWithoutABackoff() async throws {
        // Given a stored answer, and a server that then refuses connections, behind the default retries
        for code in [URLError.Code.cannotConnectToHost, .notConnectedToInternet] {
            let origin = ScriptedOrigin()
            origin.answer(.init(headers: ["Cache-Control": "max-age=0"]), .init(error: URLError(code)))
            let waits = Recorder<Duration>()
            let provider = origin.provider(middlewares: [RetryMiddleware(sleep: { waits.append($0) })])
            _ = try await provider.send(origin.film())
            // When cache-then-network runs
            var sources: [String] = []
            let failure = await error {
                for try await answer in provider.responses(for: origin.film()) {
                    sources.append(answer.source.isFromCache ? "cache" : "network")
                }
            }
            // Then the stored answer comes, then the failure after one attempt and no wait
            #expect(sources == ["cache"])
            #expect((failure as? NetworkError).map { "\($0)" }?.isEmpty == false, "\(code)")
            #expect(waits.values.isEmpty, "\(code)")
            #expect(origin.requests.count == 2, "\(code)")
        }
    }
}
