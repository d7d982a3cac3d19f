import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Records when it sees the request and the response.
struct Tracing: NetworkMiddleware {
    let name: String
    let trace: Recorder<String>
    func intercept(
        _ request: URLRequest, context: RequestContext, next: Next
    ) async throws -> (Data, HTTPURLResponse) {
        trace.append("\(name) →")
        let response = try await next(request)
        trace.append("\(name) ←")
        return response
    }
}

@Suite("Middleware")
struct MiddlewareTests {
    let endpoint = Endpoint<Movie>(baseURL: exampleURL, path: "movie")

    @Test func middlewaresRunInOrderTheFirstOutermost() async throws {
        // Given
        let trace = Recorder<String>()
        let provider = NetworkProvider(
            session: .json(#"{"title":"Wonka","year":2023}"#),
            middlewares: [Tracing(name: "A", trace: trace), Tracing(name: "B", trace: trace)])
        // When
        _ = try await provider.send(endpoint)
        // Then
        #expect(trace.values == ["A →", "B →", "B ←", "A ←"])
    }

    @Test func authorizationAddsTheTokenWithItsScheme() async throws {
        // Given Kakao's scheme
        let (session, received) = recordingStub()
        let provider = NetworkProvider(
            session: session,
            middlewares: [
                AuthorizationMiddleware(scheme: "KakaoAK", hosts: ["api.example.com"]) { "rest-key" }
            ])
        // When
        _ = try await provider.send(endpoint)
        // Then
        #expect(received.values.first?.value(forHTTPHeaderField: "Authorization") == "KakaoAK rest-key")
    }

    @Test func aFailingTokenProviderIsAMiddlewareError() async throws {
        // Given
        struct Locked: Error {}
        let provider = NetworkProvider(
            session: .json("{}"),
            middlewares: [AuthorizationMiddleware(hosts: ["api.example.com"]) { throw Locked() }])
        // When
        let thrown = await error { try await provider.send(endpoint) }
        // Then
        let underlying = try #require(
            (thrown as? NetworkError)?.middlewareError, "expected a middleware error")
        #expect(underlying is Locked)
    }

    @Test func loggingRedactsAuthorizationAndKeyLikeQueryParameters() async throws {
        // Given
        let lines = Recorder<String>()
        let provider = NetworkProvider(
            session: .json(#"{"title":"Wonka","year":2023}"#),
            middlewares: [
                LoggingMiddleware(logsHeaders: true) { lines.append($0) },
                AuthorizationMiddleware(hosts: ["api.example.com"]) { "secret-token" },
            ])
        var endpoint = endpoint
        endpoint.queryItems = [
            URLQueryItem(name: "key", value: "K0B1S"), URLQueryItem(name: "serviceKey", value: "S3"),
            URLQueryItem(name: "targetDt", value: "20261121"),
        ]
        endpoint.headers = ["Authorization": "Bearer secret-token", "Accept": "application/json"]
        // When
        _ = try await provider.send(endpoint)
        // Then
        let log = lines.values.joined(separator: "\n")
        #expect(log.contains("key=REDACTED&serviceKey=REDACTED&targetDt=20261121"))
        #expect(log.contains("Authorization: REDACTED"))
        #expect(!log.contains("K0B1S"))
        #expect(!log.contains("secret-token"))
        #expect(lines.values.last?.hasPrefix("← 200 GET") == true)
    }
}

@Suite("RetryMiddleware")
struct RetryMiddlewareTests {
    let endpoint = Endpoint<Movie>(baseURL: exampleURL, path: "movie")
    let success = StubSession.json(#"{"title":"Wonka","year":2023}"#)

    func retrying(_ session: StubSession, policy: RetryPolicy = RetryPolicy(jitter: 0)) -> (
        NetworkProvider, Recorder<Duration>
    ) {
        let waits = Recorder<Duration>()
        let retry = RetryMiddleware(policy: policy) { waits.append($0) }
        return (NetworkProvider(session: session, middlewares: [retry]), waits)
    }

    @Test func transientStatusesAreRetriedWithExponentialBackoff() async throws {
        // Given two 503s, then success
        let (provider, waits) = retrying(.sequence([.status(503), .status(503), success]))
        // When
        let movie = try await provider.send(endpoint)
        // Then
        #expect(movie.title == "Wonka")
        #expect(waits.values == [.milliseconds(500), .seconds(1)])
    }

    @Test func retryAfterInSecondsReplacesTheBackoff() async throws {
        // Given
        let (provider, waits) = retrying(.sequence([.status(429, headers: ["Retry-After": "3"]), success]))
        // When
        _ = try await provider.send(endpoint)
        // Then
        #expect(waits.values == [.seconds(3)])
    }

    @Test func retryAfterIsCappedAtTheLongestWait() async throws {
        // Given
        let (provider, waits) = retrying(
            .sequence([.status(503, headers: ["Retry-After": "3600"]), success]),
            policy: RetryPolicy(maxDelay: .seconds(10), jitter: 0))
        // When
        _ = try await provider.send(endpoint)
        // Then
        #expect(waits.values == [.seconds(10)])
    }

    @Test func attemptsAreCappedAndTheLastFailureIsReported() async throws {
        // Given a server that always answers 503
        let (provider, waits) = retrying(.status(503))
        // When
        let thrown = await error { try await provider.send(endpoint) }
        // Then
        let failure = try #require((thrown as? NetworkError)?.statusFailure, "expected the last 503")
        #expect(failure.statusCode == 503)
        #expect(waits.values.count == 2)
    }

    @Test func lostConnectionsAreRetried() async throws {
        // Given
        let (provider, waits) = retrying(.sequence([.failing(URLError(.networkConnectionLost)), success]))
        // When
        _ = try await provider.send(endpoint)
        // Then
        #expect(waits.values.count == 1)
    }

    @Test func permanentFailuresAreNotRetried() async {
        // Given
        let (provider, waits) = retrying(.sequence([.status(404), success]))
        // When
        let thrown = await error { try await provider.send(endpoint) }
        // Then
        #expect(thrown is NetworkError)
        #expect(waits.values.isEmpty)
    }

    @Test func nonIdempotentRequestsAreNotRetriedByDefault() async {
        // Given
        let (provider, waits) = retrying(.sequence([.status(503), success]))
        let post = Endpoint<Movie>(baseURL: exampleURL, path: "movie", method: .post)
        // When
        let thrown = await error { try await provider.send(post) }
        // Then
        #expect(thrown is NetworkError)
        #expect(waits.values.isEmpty)
    }

    @Test func jitterSpreadsTheWaitAroundTheBackoff() async throws {
        // Given a random source at its extremes
        let waits = Recorder<Duration>()
        let retry = RetryMiddleware(
            policy: RetryPolicy(jitter: 0.2), sleep: { waits.append($0) }, random: { 0 })
        let provider = NetworkProvider(session: .sequence([.status(503), success]), middlewares: [retry])
        // When
        _ = try await provider.send(endpoint)
        // Then 500 ms × (1 − 0.2)
        #expect(waits.values == [.milliseconds(400)])
    }
}

@Suite("TokenRefreshMiddleware")
struct TokenRefreshMiddlewareTests {
    /// A provider whose server accepts only `Bearer fresh`, with `refresh` outside the authorization.
    func provider(
        refreshing refresh: TokenRefreshMiddleware, token: TokenStore,
        recordingAttemptsIn attempts: Recorder<String> = Recorder()
    ) -> NetworkProvider {
        let session = StubSession { request in
            let sent = request.value(forHTTPHeaderField: "Authorization") ?? ""
            attempts.append(sent)
            return (
                Data(#"{"title":"Wonka","year":2023}"#.utf8),
                try StubSession.makeResponse(for: request, status: sent == "Bearer fresh" ? 200 : 401)
            )
        }
        return NetworkProvider(
            session: session,
            middlewares: [refresh, AuthorizationMiddleware(hosts: ["api.example.com"]) { token.value }])
    }

    @Test func concurrent401sCauseOneRefreshAndEachRequestRetriesOnce() async throws {
        // Given a server that accepts only the refreshed token, and ten requests with the stale one
        let token = TokenStore(value: "stale")
        let refreshes = Recorder<Int>()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let refresh = TokenRefreshMiddleware {
            refreshes.append(1)
            for await _ in gate { break }
            token.value = "fresh"
        }
        let attempts = Recorder<String>()
        let provider = provider(refreshing: refresh, token: token, recordingAttemptsIn: attempts)
        let endpoint = Endpoint<Movie>(baseURL: exampleURL, path: "me")
        // When
        let titles = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<10 { group.addTask { try await provider.send(endpoint).title } }
            await waitWhile { attempts.values.count < 10 }
            open.yield()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Then
        #expect(titles.count == 10)
        #expect(refreshes.values.count == 1)
        #expect(refresh.refreshCount == 1)
        #expect(attempts.values.filter { $0 == "Bearer fresh" }.count == 10)
        #expect(attempts.values.count == 20)
    }

    @Test func aCancelledCallerStopsWaitingForTheRefreshWhileOthersGetIt() async throws {
        // Given a refresh held open by the test, and two requests waiting for it
        let token = TokenStore(value: "stale")
        let refreshing = AsyncGate()  // open: it only counts the refreshes begun
        refreshing.open()
        let release = AsyncGate()
        let refresh = TokenRefreshMiddleware {
            await refreshing.enter()
            await release.enter()
            token.value = "fresh"
        }
        let provider = provider(refreshing: refresh, token: token)
        let endpoint = Endpoint<Movie>(baseURL: exampleURL, path: "me")
        let patient = Task { try await provider.send(endpoint).title }
        let leaving = Task { try await provider.send(endpoint).title }
        await refreshing.waitUntilEntered(1)
        // When one caller is cancelled while the refresh is still running
        leaving.cancel()
        // Then it leaves with CancellationError while the refresh is still held (waiting for the refresh
        // would never end: the test releases it only afterwards)
        let left = Recorder<Bool>()
        let returned = await Watchdog.finishes(within: 10) {
            left.append(await error { try await leaving.value } is CancellationError)
        }
        #expect(returned)
        #expect(left.values == [true])
        // And the other caller gets the refreshed answer once the refresh ends
        release.open()
        #expect(try await patient.value == "Wonka")
        #expect(refresh.refreshCount == 1)
    }

    @Test func aFailedRefreshIsThrown() async throws {
        // Given
        struct SignedOut: Error {}
        let provider = NetworkProvider(
            session: .status(401), middlewares: [TokenRefreshMiddleware { throw SignedOut() }])
        // When
        let thrown = await error { try await provider.send(Endpoint<Movie>(baseURL: exampleURL, path: "me")) }
        // Then
        let underlying = try #require(
            (thrown as? NetworkError)?.middlewareError, "expected the refresh failure")
        #expect(underlying is SignedOut)
    }
}

/// A token a test can change from any thread.
final class TokenStore: @unchecked Sendable {
    // @unchecked Sendable: `stored` is only touched while holding `lock`.
    private let lock = NSLock()
    private var stored: String

    init(value: String) { stored = value }

    var value: String {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            stored = newValue
            lock.unlock()
        }
    }
}
