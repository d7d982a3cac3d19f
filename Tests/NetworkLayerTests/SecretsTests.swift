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

    @Test func aGroupsCredentialGoesToItsOriginOnlyNotToItsHostOnAnotherSchemeOrPort() {
        // Given Kakao's credential, made for its group (https, port 443)
        let middleware = AuthorizationMiddleware(for: api, scheme: "KakaoAK") { "key" }
        // Then
        #expect(middleware.applies(to: URL(string: "https://dapi.kakao.com/v2/search/image")))
        #expect(middleware.applies(to: URL(string: "https://DAPI.kakao.com:443/v2")))
        #expect(!middleware.applies(to: URL(string: "http://dapi.kakao.com/v2/search/image")))
        #expect(!middleware.applies(to: URL(string: "https://dapi.kakao.com:8443/v2")))
    }

    @Test func aGroupWithoutSchemeOrHostGivesItsCredentialToNothing() throws {
        let group = EndpointGroup(baseURL: try #require(URL(string: "api.example")))
        let middleware = AuthorizationMiddleware(for: group) { "key" }
        #expect(!middleware.applies(to: URL(string: "evil/x")))
        #expect(!middleware.applies(to: URL(string: "https://api.example/x")))
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

    @Test func theLogsFailureLineIsTheErrorsOwnOneLineDescription() async {
        // Given a transport failing with the URL in the error's user info
        let lines = Recorder<String>()
        let url = URL(string: "https://example.com/daily?key=\(sentinel)")!
        let provider = NetworkProvider(
            session: .failing(URLError(.cannotConnectToHost, userInfo: [NSURLErrorFailingURLErrorKey: url])),
            middlewares: [LoggingMiddleware { lines.append($0) }])
        // When
        _ = await error { try await provider.send(Endpoint<Movie>(baseURL: exampleURL, path: "daily")) }
        // Then the line says what failed, as NetworkError does, not an NSError dump
        let failure = lines.values.last ?? ""
        #expect(failure.contains("Network failure (URLError -1004)"))
        #expect(!failure.contains("NSErrorFailingURL"))
        #expect(!failure.contains(sentinel))
    }

    @Test(arguments: [
        "https://x.test/a?key=S3NT1NEL-KEY", "token=S3NT1NEL-KEY&x=1",
        #"Authorization: "KakaoAK S3NT1NEL-KEY""#,
        "\"X-Api-Key\": \"S3NT1NEL-KEY\"", "Cookie: session=S3NT1NEL-KEY",
        "https://user:S3NT1NEL-KEY@x.test/", #"{"access_token" : "S3NT1NEL-KEY"}"#,
        "Authorization : Bearer S3NT1NEL-KEY", "Authorization:\n S3NT1NEL-KEY", "redis://u:pa#S3NT1NEL-KEY@h",
        "x-auth-token\t: S3NT1NEL-KEY",
        "https://demo.firebaseio.com/a.json?auth=S3NT1NEL-KEY",
        "https://acct.blob.core.windows.net/c/b?sv=2020-08-04&sig=S3NT1NEL-KEY",
        "https://x.test/?session=S3NT1NEL-KEY", "https://x.test/?credential=S3NT1NEL-KEY",
        "https://x.test/?pass=S3NT1NEL-KEY", "https://x.test/?sid=S3NT1NEL-KEY",
        "Cookie: lang=ko; sid=S3NT1NEL-KEY", "Cookie: lang=ko; PHPSESSID=S3NT1NEL-KEY",
        #"{"token":"ab\"S3NT1NEL-KEY"}"#,
    ])
    func freeTextLosesEverySecretLookingValue(text: String) {
        #expect(!Redaction.redact(text: text).contains(sentinel))
    }

    @Test(arguments: [
        "https://demo.firebaseio.com/a.json?auth=S3NT1NEL-KEY",
        "https://acct.blob.core.windows.net/c/b?sv=2020-08-04&sig=S3NT1NEL-KEY",
        "https://x.test/?session=S3NT1NEL-KEY", "https://x.test/?credential=S3NT1NEL-KEY",
        "https://x.test/?pass=S3NT1NEL-KEY", "https://x.test/?sid=S3NT1NEL-KEY",
    ])
    func aURLLosesTheValuesOfCommonSecretParameters(url: String) {
        #expect(!Redaction.redact(URL(string: url)).contains(sentinel))
    }

    @Test(arguments: [
        "https://app.test/callback#access_token=S3NT1NEL-KEY&token_type=bearer",
        "https://app.test/callback#state=1&id_token=S3NT1NEL-KEY",
    ])
    func aURLLosesATokenInItsFragment(url: String) {
        let shown = Redaction.redact(URL(string: url))
        #expect(!shown.contains(sentinel))
        #expect(shown.contains("app.test/callback#"))
    }

    @Test(arguments: ["author", "design", "passenger", "side"])
    func everydayParametersThatMerelyContainAShortSecretNameAreKept(name: String) {
        #expect(!Redaction.isSensitive(queryName: name))
    }

    @Test(arguments: [
        String(repeating: "key", count: 20_000), String(repeating: "token:", count: 10_000),
        String(repeating: "a=", count: 20_000), String(repeating: "http://", count: 10_000),
    ])
    func redactingLongHostileTextTakesLinearTime(text: String) throws {
        // Given text a server controls, shaped to make a backtracking matcher take minutes
        // When / Then it is redacted well within the watchdog's limit
        let finished = Watchdog.finishes(within: 5) { _ = Redaction.redact(text: text) }
        try #require(finished, "redaction took more than 5 s")
    }

    @Test func textRedactionKeepsWhatIsNotSecret() {
        // A value runs to a separator; a colon is not one (a token may hold colons), so it goes too.
        let text =
            #"HTTP 500 from https://x.test/a?day=1&key=abc: {"Accept": "json", "X-Api-Key": "abc"} Cookie: s=abc"#
        #expect(
            Redaction.redact(text: text)
                == #"HTTP 500 from https://x.test/a?day=1&key=REDACTED {"Accept": "json", "X-Api-Key": "REDACTED"} Cookie: REDACTED"#
        )
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

    @Test func aRecordingDoesNotKeepAKeyTheServerEchoesInItsBody() async throws {
        // Given an upstream whose error body repeats the request's URL, key included
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("SecretsTests-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let upstream = StubSession.status(
            401, body: Data(#"{"error": "bad key in https://api.example.com/v1?key=\#(sentinel)"}"#.utf8))
        let session = RecordReplaySession(directory: folder, mode: .record(upstream: upstream))
        // When
        _ = await error {
            try await NetworkProvider(session: session).send(Endpoint<Data>(baseURL: exampleURL))
        }
        // Then
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        let recorded = try String(contentsOf: try #require(files.first), encoding: .utf8)
        #expect(!recorded.contains(sentinel))
        #expect(recorded.contains("bad key"))
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

    func echo(redirectingTo target: URL, coalescing: Bool = false) async throws -> Echo {
        let group = EndpointGroup(baseURL: server.baseURL)
        let provider = NetworkProvider(
            session: URLSession(configuration: .ephemeral),
            middlewares: [AuthorizationMiddleware(for: group, scheme: "KakaoAK") { "S3NT1NEL-KEY" }],
            configuration: .init(coalescesIdenticalGETs: coalescing))
        let endpoint = group.endpoint(
            .get, "redirect-to", query: [URLQueryItem(name: "url", value: target.absoluteString)],
            headers: ["X-Api-Key": "S3NT1NEL-KEY", "Accept": "application/json"], as: Echo.self)
        return try await provider.send(endpoint)
    }

    @Test(arguments: [false, true])
    func aRedirectToAnotherHostArrivesWithoutCredentials(coalescing: Bool) async throws {
        // Given the same server under another host name: another origin (with coalescing, the request
        // goes through URLSession's own `response(for:)`, not the provider's timed data task)
        let port = try #require(server.baseURL.port)
        let elsewhere = try #require(URL(string: "http://localhost:\(port)/echo"))
        // When
        let echo = try await echo(redirectingTo: elsewhere, coalescing: coalescing)
        // Then
        #expect(echo.path == "/echo")
        #expect(echo.headers["authorization"] == nil)
        #expect(echo.headers["x-api-key"] == nil)
        #expect(echo.headers["accept"] == "application/json")
    }

    @Test func aSessionWrappingURLSessionStripsCredentialsOnACrossOriginRedirectToo() async throws {
        // Given a recording session over URLSession, as a bug report would use
        let port = try #require(server.baseURL.port)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("Redirects-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = RecordReplaySession(
            directory: folder, mode: .record(upstream: URLSession(configuration: .ephemeral)))
        var request = URLRequest(
            url: server.baseURL.appendingPathComponent("redirect-to").appending(
                queryItems: [URLQueryItem(name: "url", value: "http://localhost:\(port)/echo")]))
        request.setValue("Bearer S3NT1NEL-KEY", forHTTPHeaderField: "Authorization")
        // When
        let (data, _) = try await session.response(for: request)
        // Then
        let echo = try JSONDecoder().decode(Echo.self, from: data)
        #expect(echo.path == "/echo")
        #expect(echo.headers["authorization"] == nil)
    }

    @Test func aRedirectWithinTheOriginKeepsItsCredentials() async throws {
        // When
        let echo = try await echo(redirectingTo: server.baseURL.appendingPathComponent("echo"))
        // Then
        #expect(echo.headers["authorization"] == "KakaoAK S3NT1NEL-KEY")
        #expect(echo.headers["x-api-key"] == "S3NT1NEL-KEY")
    }
}
