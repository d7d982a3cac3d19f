import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A credential reaches only the host it is meant for, and no rendering of a request (an error's
/// description, a log line, a recording) shows it.
@Suite("Secrets: scoped credentials and redaction everywhere")
struct SecretsTests {
    let sentinel = "S3NT1NEL-KEY"
    let api = EndpointGroup(baseURL: URL(string: "https://dapi.kakao.com")!)

    // MARK: - AuthorizationMiddleware

    @Test func theAuthorizationHeaderGoesOnlyToTheGroupsHost() async throws {
        // Given a provider with Kakao's credential, sending to Kakao and to an image host
        let (session, requests) = recordingStub(.status(200))
        let provider = NetworkProvider(
            session: session,
            middlewares: [AuthorizationMiddleware(for: api, scheme: "KakaoAK") { [sentinel] in sentinel }])
        // When
        _ = try await provider.send(api.endpoint(.get, "v2/search/image", as: EmptyResponse.self))
        _ = try await provider.send(
            Endpoint<Data>(baseURL: URL(string: "http://blog.example.net/poster.jpg")!))
        // Then
        let sent = requests.values.map { $0.value(forHTTPHeaderField: "Authorization") }
        #expect(sent == ["KakaoAK \(sentinel)", nil])
    }

    @Test func hostsAreComparedWithoutCaseAndNoSubdomainMatchesAnother() {
        // Given
        let middleware = AuthorizationMiddleware(hosts: ["API.example.com"]) { "token" }
        // Then
        #expect(middleware.applies(to: URL(string: "https://api.EXAMPLE.com/v1")))
        #expect(!middleware.applies(to: URL(string: "https://evil.api.example.com/v1")))
        #expect(!middleware.applies(to: URL(string: "https://api.example.com.evil.net/v1")))
        #expect(!middleware.applies(to: URL(string: "https://example.com/v1")))
    }

    // MARK: - Redaction in descriptions, logs and recordings

    @Test func anHTTPErrorsDescriptionHidesTheKeyInItsURL() async {
        // Given a KOBIS-style key in the query, and a server that fails
        let provider = NetworkProvider(session: .status(500, body: Data("oops".utf8)))
        let endpoint = Endpoint<Movie>(
            baseURL: exampleURL, path: "daily", queryItems: [URLQueryItem(name: "key", value: sentinel)])
        // When
        let thrown = await error { try await provider.send(endpoint) }
        // Then
        let description = "\(String(describing: thrown))"
        #expect(description.contains("HTTP 500"))
        #expect(description.contains("key=REDACTED"))
        #expect(!description.contains(sentinel))
    }

    @Test func aTransportErrorsDescriptionHidesTheKeyItsUserInfoCarries() {
        // Given a URLError as URLSession makes it, with the failing URL in its user info
        let url = URL(string: "https://example.com/a?serviceKey=\(sentinel)&day=1")!
        let error = NetworkError.transport(
            URLError(
                .cannotConnectToHost,
                userInfo: [
                    NSURLErrorFailingURLErrorKey: url, "NSErrorFailingURLStringKey": url.absoluteString,
                ]))
        // When
        let description = error.description
        // Then
        #expect(!description.contains(sentinel))
    }

    @Test func anErrorsDescriptionIsOneLineWithoutControlCharacters() async {
        // Given a body with line breaks and an escape sequence
        let provider = NetworkProvider(session: .status(502, body: Data("bad\ngateway\r\n\u{1B}[2J".utf8)))
        // When
        let thrown = await error { try await provider.send(Endpoint<Movie>(baseURL: exampleURL, path: "x")) }
        // Then
        let description = String(describing: thrown ?? CancellationError())
        #expect(!description.contains("\n"))
        #expect(!description.unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(description.contains("bad gateway"))
    }

    @Test func theLogHidesTheKeyInAFailureAndInCredentialLikeHeaders() async {
        // Given a logging provider whose transport fails with the URL in the error
        let lines = Recorder<String>()
        let url = URL(string: "https://example.com/daily?key=\(sentinel)")!
        let provider = NetworkProvider(
            session: .failing(URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: url])),
            middlewares: [LoggingMiddleware(logsHeaders: true) { lines.append($0) }])
        let endpoint = Endpoint<Movie>(
            baseURL: exampleURL, path: "daily", queryItems: [URLQueryItem(name: "key", value: sentinel)],
            headers: [
                "X-Api-Key": sentinel, "Authorization": "Bearer \(sentinel)", "Accept": "application/json",
            ])
        // When
        _ = await error { try await provider.send(endpoint) }
        // Then
        #expect(lines.values.count == 2)
        #expect(lines.values.allSatisfy { !$0.contains(sentinel) })
        #expect(lines.values.first?.contains("Accept: application/json") == true)
    }

    @Test(arguments: [
        "https://x.test/a?key=S3NT1NEL-KEY", "token=S3NT1NEL-KEY&x=1",
        #"Authorization: "KakaoAK S3NT1NEL-KEY""#,
        "\"X-Api-Key\": \"S3NT1NEL-KEY\"", "Cookie: session=S3NT1NEL-KEY",
        "https://user:S3NT1NEL-KEY@x.test/",
    ])
    func freeTextLosesEverySecretLookingValue(text: String) {
        #expect(!Redaction.redact(text: text).contains(sentinel))
    }

    @Test func aRecordingDoesNotKeepCredentialLikeResponseHeaders() async throws {
        // Given an upstream that sets a session cookie
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("SecretsTests-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let upstream = StubSession.status(
            200, body: Data("{}".utf8), headers: ["Set-Cookie": "sid=\(sentinel)"])
        let session = RecordReplaySession(directory: folder, mode: .record(upstream: upstream))
        // When
        _ = try await NetworkProvider(session: session).send(Endpoint<Data>(baseURL: exampleURL))
        // Then
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        let recorded = try String(contentsOf: try #require(files.first), encoding: .utf8)
        #expect(!recorded.contains(sentinel))
    }
}

/// Redirects followed by URLSession, against the fixture server: a redirect to another origin loses the
/// request's credentials; one within the origin keeps them.
@Suite("Secrets: redirects")
struct RedirectSecretsTests {
    let server: TestServer

    init() async throws {
        server = try await TestServer.shared.value
    }

    func echo(redirectingTo target: URL) async throws -> Echo {
        let group = EndpointGroup(baseURL: server.baseURL)
        let provider = NetworkProvider(
            session: URLSession(configuration: .ephemeral),
            middlewares: [AuthorizationMiddleware(for: group, scheme: "KakaoAK") { "S3NT1NEL-KEY" }])
        let endpoint = group.endpoint(
            .get, "redirect-to", query: [URLQueryItem(name: "url", value: target.absoluteString)],
            headers: ["X-Api-Key": "S3NT1NEL-KEY", "Accept": "application/json"], as: Echo.self)
        return try await provider.send(endpoint)
    }

    @Test func aRedirectToAnotherHostArrivesWithoutCredentials() async throws {
        // Given the same server under another host name: another origin
        let port = try #require(server.baseURL.port)
        let elsewhere = try #require(URL(string: "http://localhost:\(port)/echo"))
        // When
        let echo = try await echo(redirectingTo: elsewhere)
        // Then
        #expect(echo.path == "/echo")
        #expect(echo.headers["authorization"] == nil)
        #expect(echo.headers["x-api-key"] == nil)
        #expect(echo.headers["accept"] == "application/json")
    }

    @Test func aRedirectWithinTheOriginKeepsItsCredentials() async throws {
        // When
        let echo = try await echo(redirectingTo: server.baseURL.appendingPathComponent("echo"))
        // Then
        #expect(echo.headers["authorization"] == "KakaoAK S3NT1NEL-KEY")
        #expect(echo.headers["x-api-key"] == "S3NT1NEL-KEY")
    }
}
