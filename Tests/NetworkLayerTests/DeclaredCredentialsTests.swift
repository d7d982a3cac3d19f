import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Credentials declared once, under names no heuristic knows (an exchange's `CB-ACCESS-PASSPHRASE`, a
/// `?scope=` parameter): every consumer asks ``Credentials`` and hides, strips or refuses them by name,
/// and hides their values wherever they appear.
@Suite("Credentials declared once")
struct DeclaredCredentialsTests {
    /// A value no test shares, long enough to be hidden wherever it appears.
    static func secret() -> String { "PASS-\(UUID().uuidString.prefix(12))" }

    // MARK: - The redirect guard

    @Test func aDeclaredHeaderWithAnUnlistedNameLosesItsValueOnARedirectToAnotherOrigin() async throws {
        // Given a middleware setting an exchange's passphrase header, and a redirect to another host
        let server = try await TestServer.shared.value
        let group = EndpointGroup(baseURL: server.baseURL)
        let passphrase = Self.secret()
        let provider = NetworkProvider(
            session: URLSession(configuration: .ephemeral),
            middlewares: [
                AuthorizationMiddleware(for: group, scheme: "", field: "CB-ACCESS-PASSPHRASE") { passphrase }
            ])
        let port = try #require(server.baseURL.port)
        let endpoint = group.endpoint(
            .get, "redirect-to", query: [URLQueryItem(name: "url", value: "http://localhost:\(port)/echo")],
            as: Echo.self)
        // When
        let echo = try await provider.send(endpoint)
        // Then it arrived at the other origin without the header
        #expect(echo.path == "/echo")
        #expect(echo.headers["cb-access-passphrase"] == nil)
    }

    // MARK: - A background session's refusal

    @Test func aBackgroundSessionRefusesADeclaredHeaderWithAnUnlistedName() async throws {
        // Given a provider on a background session, and a group that declares its passphrase header
        let server = try await TestServer.shared.value
        let group = EndpointGroup(
            baseURL: server.baseURL, credentialHeaders: ["CB-ACCESS-PASSPHRASE": Self.secret()])
        let provider = NetworkProvider(
            sessionConfiguration: .ephemeral, delegate: nil, middlewares: [], configuration: .init(),
            background: BackgroundTasks(identifier: UUID().uuidString, report: { _ in }))
        let folder = try TemporaryFolder.create("declared")
        // When
        let failure = await error {
            try await provider.download(
                group.get("ranged", query: ["bytes": "10"], as: Data.self),
                to: folder.url.appendingPathComponent("a"))
        }
        // Then
        guard case NetworkError.invalidRequest(.credentialHeaderInBackground(_, let header))? = failure else {
            Issue.record("expected a refused credential header, got \(String(describing: failure))")
            return
        }
        #expect(header.lowercased() == "cb-access-passphrase")
    }

    // MARK: - Logs and errors

    @Test func theLogHidesADeclaredHeaderByNameAndItsValueWhereverItAppears() async throws {
        // Given a logging provider whose configuration declares a header of the app's own middleware,
        // and a server that fails with the value in the URL's path
        let passphrase = Self.secret()
        let lines = Recorder<String>()
        var configuration = NetworkProvider.Configuration()
        configuration.credentialHeaders = ["X-Desk-Phrase"]
        let session = StubSession { request in
            (Data(), try StubSession.makeResponse(for: request, status: 500))
        }
        let provider = NetworkProvider(
            session: session,
            middlewares: [
                LoggingMiddleware(logsHeaders: true) { lines.append($0) },
                SetHeader(name: "X-Desk-Phrase", value: passphrase),
            ],
            configuration: configuration)
        var endpoint = Endpoint<Data>(baseURL: exampleURL, path: "echo/\(passphrase)")
        endpoint.headers["X-Desk-Phrase"] = passphrase
        // When
        let failure = await error { try await provider.send(endpoint) }
        // Then neither the log nor the error shows it
        #expect(!lines.values.isEmpty)
        for line in lines.values { #expect(!line.contains(passphrase)) }
        #expect(lines.values.first?.contains("X-Desk-Phrase: REDACTED") == true)
        #expect(!"\(String(describing: failure))".contains(passphrase))
    }

    @Test func aValueShorterThanEightCharactersIsHiddenByItsNameOnly() {
        // Given a short declared value
        Credentials.declare(value: "1234567")
        // When, Then ordinary text that happens to hold it is left alone
        #expect(Redaction.redact(text: "order 1234567 shipped") == "order 1234567 shipped")
    }

    // MARK: - Recordings

    @Test func aRecordingHidesADeclaredValueTheServerEchoesInAResponseHeader() async throws {
        // Given a server whose Link header repeats the request's declared scope token
        let token = Self.secret()
        Credentials.declare(queryNames: ["scope"])
        let upstream = StubSession { request in
            (
                Data("{}".utf8),
                try StubSession.makeResponse(
                    for: request, status: 200,
                    headers: ["Link": "<https://x.example/next?scope=\(token)>; rel=\"next\""])
            )
        }
        let folder = try TemporaryFolder.create("declared")
        let session = RecordReplaySession(directory: folder.url, mode: .record(upstream: upstream))
        let provider = NetworkProvider(session: session)
        // When
        _ = try await provider.send(
            Endpoint<Data>(
                baseURL: exampleURL, path: "list", queryItems: [URLQueryItem(name: "scope", value: token)]))
        // Then no recording holds it
        for name in folder.fileNames {
            let text = try String(contentsOf: folder.url.appendingPathComponent(name), encoding: .utf8)
            #expect(!text.contains(token))
            #expect(!name.contains(token))
        }
        #expect(folder.fileNames.count == 1)
    }

    /// "Refused" in a legacy charset: Latin-1's `refusée`, and EUC-KR's `거부` (bytes B0 C5 BA CE), which
    /// Foundation on Linux cannot encode itself.
    static let refusedInLegacyCharsets: [Data] = [
        Data([0x72, 0x65, 0x66, 0x75, 0x73, 0xE9, 0x65]), Data([0xB0, 0xC5, 0xBA, 0xCE]),
    ]

    @Test(arguments: refusedInLegacyCharsets)
    func aRecordingHidesAKeyEchoedInATextBodyThatIsNotUTF8(refused: Data) async throws {
        // Given an error page in a legacy charset that repeats the request's key, by name and by value
        let key = Self.secret()
        let page = Data("<p>".utf8) + refused + Data(": key=\(key) (\(key))</p>".utf8)
        #expect(String(data: page, encoding: .utf8) == nil)
        let upstream = StubSession { request in
            (
                page,
                try StubSession.makeResponse(
                    for: request, status: 401, headers: ["Content-Type": "text/html"])
            )
        }
        let folder = try TemporaryFolder.create("declared")
        let group = EndpointGroup(
            baseURL: exampleURL, credentialQueryItems: [URLQueryItem(name: "key", value: key)])
        let provider = NetworkProvider(
            session: RecordReplaySession(directory: folder.url, mode: .record(upstream: upstream)))
        // When
        _ = await error { try await provider.send(group.get("movies", as: Data.self)) }
        // Then the stored body, decoded, holds neither
        let name = try #require(folder.fileNames.first)
        let exchange = try JSONDecoder().decode(
            Exchange.self, from: Data(contentsOf: folder.url.appendingPathComponent(name)))
        let stored = try #require(exchange.bodyData.flatMap { String(data: $0, encoding: .isoLatin1) })
        #expect(!stored.contains(key))
        #expect(stored.contains("REDACTED"))
    }

    @Test func aDeclaredQueryItemIsLeftOutOfTheMatchSoAnotherKeyReplaysTheRecording() async throws {
        // Given a recording made with one key of a group that declares it
        let folder = try TemporaryFolder.create("declared")
        let upstream = StubSession { request in
            (Data("recorded".utf8), try StubSession.makeResponse(for: request, status: 200))
        }
        let recording = EndpointGroup(
            baseURL: exampleURL, credentialQueryItems: [URLQueryItem(name: "scope", value: Self.secret())])
        _ = try await NetworkProvider(
            session: RecordReplaySession(directory: folder.url, mode: .record(upstream: upstream))
        )
        .send(recording.get("list", query: ["day": "1"], as: Data.self))
        // When it is replayed with another key
        let replaying = EndpointGroup(
            baseURL: exampleURL, credentialQueryItems: [URLQueryItem(name: "scope", value: Self.secret())])
        let body = try await NetworkProvider(
            session: RecordReplaySession(directory: folder.url, mode: .replay)
        )
        .send(replaying.get("list", query: ["day": "1"], as: Data.self))
        // Then
        #expect(body == Data("recorded".utf8))
    }

    @Test func anUndeclaredParameterThatMerelyLooksSecretStillTellsRecordingsApart() async throws {
        // Given two searches whose parameter name holds "key"
        let apple = URLRequest(url: try #require(URL(string: "https://api.example.com/search?keyword=apple")))
        let banana = URLRequest(
            url: try #require(URL(string: "https://api.example.com/search?keyword=banana")))
        let session = RecordReplaySession(directory: URL(fileURLWithPath: "/nonexistent"), mode: .replay)
        // When, Then they are two recordings, neither naming its value
        #expect(session.fileURL(for: apple) != session.fileURL(for: banana))
        #expect(!session.fileURL(for: apple).lastPathComponent.contains("apple"))
    }

    // MARK: - The store itself

    @Test func aDeclaredValueIsHiddenInBytesOfUTF8AndOfEitherUTF16ByteOrder() throws {
        // Given a declared value inside bytes of three encodings
        let value = Self.secret()
        Credentials.declare(value: value)
        for encoding in [String.Encoding.utf8, .utf16LittleEndian, .utf16BigEndian] {
            let bytes = try #require("before \(value) after".data(using: encoding))
            // When
            let redacted = Credentials.redactValues(in: bytes)
            // Then
            #expect(String(data: redacted, encoding: encoding) == "before REDACTED after")
        }
    }

    @Test func theStoreKeepsTheNewestLearnedValuesWithoutPushingOutDeclaredOnes() {
        // Given a store of its own with a declared value, one learned value, and then as many newer learned
        // ones as a store keeps, the first learned one seen again among them
        let store = CredentialStore()
        let (declared, oldest, renewed) = (Self.secret(), Self.secret(), Self.secret())
        store.declare(value: declared)
        store.declare(value: oldest, pinned: false)
        store.declare(value: renewed, pinned: false)
        for _ in 0..<(Credentials.valueLimit - 2) { store.declare(value: Self.secret(), pinned: false) }
        store.declare(value: renewed, pinned: false)
        store.declare(value: Self.secret(), pinned: false)
        // When, Then the oldest learned value is no longer searched for; the declared one and the one seen
        // again are
        #expect(store.redactValues(in: oldest) == oldest)
        #expect(store.redactValues(in: renewed) == "REDACTED")
        #expect(store.redactValues(in: declared) == "REDACTED")
    }

    @Test func aValueIsFoundPercentEncodedInEitherCaseFormEncodedAndJSONEscaped() {
        // Given a declared value with a space, a plus and a slash
        let store = CredentialStore()
        store.declare(value: "pa ss+wo/rd-1")
        // When, Then every form a server may echo it in is hidden
        for form in ["pa%20ss%2Bwo%2Frd-1", "pa%20ss%2bwo%2frd-1", "pa+ss%2Bwo%2Frd-1", "pa ss+wo\\/rd-1"] {
            #expect(store.redactValues(in: "echo: \(form)") == "echo: REDACTED", "\(form)")
        }
    }

    @Test(arguments: [
        ("key", true), ("apiKey", true), ("access_key", true), ("serviceKey", true),
        ("X-Amz-Signature", true),
        ("session_id", true), ("api_token", true), ("appkey", true), ("pwd", true), ("keyword", false),
        ("secretary", false), ("tokenizer", false), ("page", false),
    ])
    func aRecordingLeavesOutANameThatEndsWithASecretsWordButNotOneThatOnlyBeginsWithIt(
        name: String, leftOut: Bool
    ) {
        #expect(RecordReplaySession.namesACredential(name) == leftOut)
    }

    @Test func aDeclaredValueInThePathIsNotInTheRecordingsFileName() throws {
        // Given a bot token in the path, declared
        let token = Self.secret()
        Credentials.declare(value: token)
        let request = URLRequest(url: try #require(URL(string: "https://api.example.com/bot\(token)/getMe")))
        // When
        let name = RecordReplaySession(directory: URL(fileURLWithPath: "/nonexistent"), mode: .replay)
            .fileURL(for: request).lastPathComponent
        // Then
        #expect(!name.contains(token))
    }

    @Test func aCURLCommandHidesADeclaredValueInAFormAndInJSON() throws {
        // Given a declared value sent in fields whose names look innocent
        let value = Self.secret()
        Credentials.declare(value: value)
        var form = URLRequest(url: try #require(URL(string: "https://example.com/a")))
        form.httpMethod = "POST"
        form.httpBody = Data("note=\(value)".utf8)
        form.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        var json = form
        json.httpBody = Data(#"{"password":"x","note":"\#(value)"}"#.utf8)
        json.setValue("application/json", forHTTPHeaderField: "Content-Type")
        // When, Then
        #expect(!Redaction.cURL(form).contains(value))
        #expect(!Redaction.cURL(json).contains(value))
    }
}

/// Sets a header on every request, as an app's own credential middleware would.
private struct SetHeader: NetworkMiddleware {
    let name: String
    let value: String

    func intercept(_ request: URLRequest, context: RequestContext, next: Next) async throws -> (
        Data, HTTPURLResponse
    ) {
        var request = request
        request.setValue(value, forHTTPHeaderField: name)
        return try await next(request)
    }
}
