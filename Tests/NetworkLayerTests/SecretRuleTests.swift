import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One rule for what is secret, applied the same way to every output: a key echoed in any encoding, a
/// key recognised by its name and echoed bare, a value straddling an excerpt's cut, a value in use.
@Suite("Secrets: one rule, every output")
struct SecretRuleTests {
    static func secret() -> String { "RULE-\(UUID().uuidString.prefix(18))" }

    /// Records one exchange of `endpoint` answered by `upstream` into a temporary folder and returns the
    /// recording's file text and its decoded exchange.
    func record(
        _ endpoint: Endpoint<Data>, upstream: StubSession, provider middlewares: [any NetworkMiddleware] = []
    ) async throws -> (file: String, name: String, exchange: Exchange) {
        let folder = try TemporaryFolder.create("rule")
        let provider = NetworkProvider(
            session: RecordReplaySession(directory: folder.url, mode: .record(upstream: upstream)),
            middlewares: middlewares)
        _ = await error { try await provider.send(endpoint) }
        let name = try #require(folder.fileNames.first)
        let data = try Data(contentsOf: folder.url.appendingPathComponent(name))
        return (
            String(decoding: data, as: UTF8.self), name, try JSONDecoder().decode(Exchange.self, from: data)
        )
    }

    /// Whether `bytes` hold `secret` in UTF-8 or in UTF-16 of either byte order.
    func holds(_ bytes: Data, _ secret: String) -> Bool {
        [String.Encoding.utf8, .utf16LittleEndian, .utf16BigEndian].contains { encoding in
            secret.data(using: encoding).map { bytes.range(of: $0) != nil } ?? false
        }
    }

    // MARK: - Defect 1: UTF-16 without a byte-order mark

    @Test(arguments: [String.Encoding.utf16LittleEndian, .utf16BigEndian])
    func aDeclaredKeyEchoedInAUTF16BodyWithoutAByteOrderMarkIsNotRecorded(encoding: String.Encoding)
        async throws
    {
        // Given a declared key the server echoes in an all-ASCII UTF-16 body with no byte-order mark
        let key = Self.secret()
        let group = EndpointGroup(
            baseURL: exampleURL, credentialQueryItems: [URLQueryItem(name: "key", value: key)])
        let body = try #require("{\"error\":\"bad key \(key)\"}".data(using: encoding))
        // When the exchange is recorded
        let recorded = try await record(
            group.get("movies", as: Data.self), upstream: .status(400, body: body))
        // Then neither the file nor the stored body holds the key in any encoding
        #expect(!recorded.file.contains(key))
        #expect(!holds(try #require(recorded.exchange.bodyData), key))
    }

    // MARK: - Defect 3: a key recognised by its name in a header

    @Test func aKeyRecognisedByItsNameRepeatedInALinkHeaderIsNotRecorded() async throws {
        // Given an undeclared `apiKey` query item the server repeats in its Link header
        let key = Self.secret()
        let endpoint = Endpoint<Data>(
            baseURL: exampleURL, path: "list", queryItems: [URLQueryItem(name: "apiKey", value: key)])
        let upstream = StubSession.status(
            200, headers: ["Link": "<https://api.example.com/v1/list?page=2&apiKey=\(key)>; rel=\"next\""])
        // When the exchange is recorded
        let recorded = try await record(endpoint, upstream: upstream)
        // Then the header is kept, without the key
        #expect(recorded.exchange.headers["Link"]?.contains("apiKey=REDACTED") == true)
        #expect(!recorded.file.contains(key))
    }

    // MARK: - Defect 4: a key recognised by its name, echoed bare

    @Test(arguments: ["query", "header"])
    func aKeyRecognisedByItsNameAndEchoedBareIsHiddenInTheErrorAndTheRecording(place: String) async throws {
        // Given an undeclared `apiKey` query item or `X-Api-Key` header, echoed bare by a 401
        let key = Self.secret()
        var endpoint = Endpoint<Data>(baseURL: exampleURL, path: "me")
        if place == "query" {
            endpoint.queryItems = [URLQueryItem(name: "apiKey", value: key)]
        } else {
            endpoint.headers["X-Api-Key"] = key
        }
        let upstream = StubSession.status(401, body: Data("unknown key \(key)".utf8))
        // When it is recorded, and sent directly
        let recorded = try await record(endpoint, upstream: upstream)
        let thrown = await error { try await NetworkProvider(session: upstream).send(endpoint) }
        // Then neither the error's description nor the recording holds it
        let description = String(describing: try #require(thrown))
        #expect(description.contains("unknown key REDACTED"))
        #expect(!description.contains(key))
        #expect(!recorded.file.contains(key))
    }

    // MARK: - Defects 6 and 7: excerpts

    @Test func aKeyStraddlingTheExcerptsCutShowsNoneOfItsCharacters() async throws {
        // Given a declared key that starts 10 characters before the 200th
        let key = "STRADDLE-" + String(repeating: "k", count: 40) + UUID().uuidString
        Credentials.declare(value: key)
        let body = Data((String(repeating: "x", count: 190) + key).utf8)
        // When a request fails with that body, and another's body does not decode
        let thrown = await error {
            try await NetworkProvider(session: .status(500, body: body)).send(
                Endpoint<Data>(baseURL: exampleURL, path: "a"))
        }
        let decoding = NetworkError.decoding(
            DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no")), type: "T", body: body)
        // Then no part of the key shows in either
        for shown in [String(describing: try #require(thrown)), decoding.description] {
            #expect(!shown.contains("STRADDLE-kkkk"))
            #expect(shown.contains("REDACTED"))
        }
    }

    @Test(arguments: [String.Encoding.utf16LittleEndian, .utf16BigEndian])
    func aKeyEchoedInAUTF16ErrorBodyIsHiddenNotSpelledOut(encoding: String.Encoding) async throws {
        // Given a declared key a server echoes in a UTF-16 error body
        let key = Self.secret()
        let group = EndpointGroup(
            baseURL: exampleURL, credentialQueryItems: [URLQueryItem(name: "key", value: key)])
        let body = try #require("bad key \(key)".data(using: encoding))
        // When the request fails
        let thrown = await error {
            try await NetworkProvider(session: .status(400, body: body)).send(group.get("a", as: Data.self))
        }
        // Then the body reads as text, the key hidden and not spelled out with spaces
        let description = String(describing: try #require(thrown))
        #expect(description.contains("bad key REDACTED"))
        #expect(!description.contains(key))
        #expect(!description.contains(key.map(String.init).joined(separator: " ")))
    }

    // MARK: - Defect 8: a value in use stays hidden

    @Test func anAuthorizationTokenStaysHiddenInItsOwnRequestsErrorWhileNewerValuesArrive() async throws {
        // Given a request whose bearer token the server will echo in a 401, held at the server
        let token = Self.secret()
        let gate = AsyncGate()
        let session = StubSession { request in
            guard request.url?.path.hasSuffix("me") == true else {
                return (Data(), try StubSession.makeResponse(for: request, status: 200))
            }
            await gate.enter()
            return (
                Data("token \(token) expired".utf8),
                try StubSession.makeResponse(for: request, status: 401)
            )
        }
        let events = Recorder<String>()
        var configuration = NetworkProvider.Configuration()
        configuration.onEvent = { event in
            if case .failed = event { events.append("\(event)") }
        }
        let provider = NetworkProvider(
            session: session,
            middlewares: [AuthorizationMiddleware(hosts: ["api.example.com"]) { token }],
            configuration: configuration)
        let request = Task {
            await error { try await provider.send(Endpoint<Data>(baseURL: exampleURL, path: "me")) }
        }
        await gate.waitUntilEntered()
        // When more requests than the store keeps learned values, elsewhere, each carry a declared nonce
        Credentials.declare(headerNames: ["X-Rule-Nonce"])
        let elsewhere = NetworkProvider(session: .status(200))
        for _ in 0...Credentials.valueLimit {
            var other = Endpoint<Data>(baseURL: exampleURL, path: "other")
            other.headers["X-Rule-Nonce"] = Self.secret()
            _ = try await elsewhere.send(other)
        }
        gate.open()
        let thrown = try #require(await request.value)
        // Then the 401's echo of the token is hidden in the event and the error
        #expect(events.values.count == 1)
        for shown in events.values + [String(describing: thrown)] {
            #expect(shown.contains("token REDACTED expired"))
            #expect(!shown.contains(token))
        }
    }

    // MARK: - Defect 11: combining marks

    @Test(arguments: ["\u{0301}", "\u{FE0F}", "\u{200D}"])
    func aDeclaredValueFollowedByACombiningMarkIsFound(mark: String) {
        // Given a declared value followed by a mark that joins the character before it
        let value = Self.secret()
        Credentials.declare(value: value)
        // When, Then
        #expect(Redaction.redact(text: "echo \(value)\(mark) end") == "echo REDACTED\(mark) end")
    }

    @Test func aValueIsFoundAsJSONWritersEscapeIt() {
        // Given a declared value with a quote, a backslash and Hangul
        let store = CredentialStore()
        store.declare(value: "pa\"ss\\word-비밀")
        // When, Then each way a JSON writer may put it in a string is hidden
        for form in [
            "pa\\\"ss\\\\word-비밀", "pa\\\"ss\\\\word-\\ube44\\ubc00", "pa\\\"ss\\\\word-\\uBE44\\uBC00",
        ] {
            #expect(store.redactValues(in: "{\"echo\":\"\(form)\"}") == "{\"echo\":\"REDACTED\"}", "\(form)")
        }
    }

    // MARK: - Defect 14: session ids in a query

    @Test(arguments: ["PHPSESSID", "JSESSIONID", "ASPSESSIONID", "sessionid"])
    func aSessionIdInTheQueryIsHiddenAndLeftOutOfTheMatchKey(name: String) throws {
        // Given a session cookie's name used as a query item
        let url = try #require(URL(string: "https://shop.example/cart?\(name)=abc123def456&page=2"))
        // When, Then it is hidden in the URL shown and left out of a recording's match key
        #expect(Redaction.redact(url) == "https://shop.example/cart?\(name)=REDACTED&page=2")
        #expect(RecordReplaySession.matchingKey(for: URLRequest(url: url)) == "GET /cart?page=2")
    }

    // MARK: - Review: what the rule's fixes touch

    @Test func aRecordedDownloadWhoseSecretWasHiddenReplaysAsAWholeFile() async throws {
        // Given a download recorded from a server whose body echoes a declared key, with its length
        let key = Self.secret()
        let group = EndpointGroup(
            baseURL: exampleURL, credentialQueryItems: [URLQueryItem(name: "key", value: key)])
        let body = Data("report for \(key): all good".utf8)
        let folder = try TemporaryFolder.create("replay-length")
        let upstream = StubSession.status(200, body: body, headers: ["Content-Length": "\(body.count)"])
        let destination = folder.url.appendingPathComponent("report.txt")
        _ = try await NetworkProvider(
            session: RecordReplaySession(directory: folder.url, mode: .record(upstream: upstream))
        ).download(group.get("report", as: Data.self), to: destination)
        try FileManager.default.removeItem(at: destination)
        // When it is replayed
        _ = try await NetworkProvider(session: RecordReplaySession(directory: folder.url, mode: .replay))
            .download(group.get("report", as: Data.self), to: destination)
        // Then the file is the recorded body, its key hidden
        #expect(try String(contentsOf: destination, encoding: .utf8) == "report for REDACTED: all good")
    }

    @Test func learnedValuesShrinkBackToTheLimitOnceTheRequestsCarryingThemEnd() {
        // Given a store of its own and more requests at once than it keeps learned values, each carrying
        // a token of its own
        let store = CredentialStore()
        let requests = (0..<(Credentials.valueLimit + 40)).map { _ in
            var request = URLRequest(url: exampleURL)
            request.setValue(Self.secret(), forHTTPHeaderField: "X-Request-Token")
            return request
        }
        let uses = requests.map { store.use($0) }
        #expect(store.learnedCount == Credentials.valueLimit + 40)
        // When they all end
        for use in uses { store.release(use) }
        // Then the store keeps the limit again
        #expect(store.learnedCount == Credentials.valueLimit)
    }

    @Test func aSearchTermWhoseNameOnlyResemblesASecretsIsNotLearnedAndKeepsRecordingsApart() async throws {
        // Given two searches sent through a provider, with a name that only begins with a secret's word
        let folder = try TemporaryFolder.create("keyword")
        let provider = NetworkProvider(
            session: RecordReplaySession(directory: folder.url, mode: .record(upstream: .status(200))))
        for term in ["pineapple", "blueberry"] {
            _ = try await provider.send(
                Endpoint<Data>(
                    baseURL: exampleURL, path: "search", queryItems: [.init(name: "keyword", value: term)]))
        }
        // When, Then each is a recording of its own, and neither term is hidden in text
        #expect(folder.fileNames.count == 2)
        #expect(Redaction.redact(text: "we found pineapple") == "we found pineapple")
    }

    @Test func aCookieFromTheSessionsStorageIsLearnedAndHiddenWhenEchoed() async throws {
        // Given a session cookie in the provider's own session's storage, which a server echoes
        let server = try await TestServer.shared.value
        let value = Self.secret()
        let configuration = URLSessionConfiguration.ephemeral
        let storage = try #require(configuration.httpCookieStorage)
        let host = try #require(server.baseURL.host)
        let cookie = try #require(
            HTTPCookie(properties: [.name: "sid", .value: value, .domain: host, .path: "/"]))
        storage.setCookie(cookie)
        let provider = NetworkProvider(sessionConfiguration: configuration)
        // When a request goes through it
        _ = try await provider.send(EndpointGroup(baseURL: server.baseURL).get("json", as: Data.self))
        // Then the cookie's value is hidden wherever it appears, bare
        #expect(Redaction.redact(text: "echo \(value)") == "echo REDACTED")
    }

    @Test func anErrorReadLongAfterItsRequestStillHidesTheValuesThatRequestCarried() async throws {
        // Given a request whose token a 401 echoes, failed and kept
        let token = Self.secret()
        var endpoint = Endpoint<Data>(baseURL: exampleURL, path: "me")
        endpoint.headers["X-Request-Token"] = token
        let thrown = try #require(
            await error {
                try await NetworkProvider(session: .status(401, body: Data("token \(token) expired".utf8)))
                    .send(endpoint)
            })
        // When more requests than the store keeps learned values run afterwards, each with its own token
        let elsewhere = NetworkProvider(session: .status(200))
        for _ in 0...Credentials.valueLimit {
            var other = Endpoint<Data>(baseURL: exampleURL, path: "other")
            other.headers["X-Request-Token"] = Self.secret()
            _ = try await elsewhere.send(other)
        }
        // Then the kept error's description still hides the token
        #expect(!String(describing: thrown).contains(token))
    }

    @Test func aBackgroundTasksNoteKeepsNoDeclaredPathToken() throws {
        // Given a bot token declared and travelling in the path, as a background upload's endpoint name
        let token = Self.secret()
        Credentials.declare(value: token)
        // When the note the task carries across launches is made
        let note = BackgroundTasks.Note(endpoint: "POST bot\(token)/sendDocument", destination: nil)
        // Then the note, read by a later process that has declared nothing, does not hold it
        let encoded = try #require(note.encoded)
        #expect(!encoded.contains(token))
        #expect(BackgroundTasks.Note(decoding: encoded)?.endpoint == "POST botREDACTED/sendDocument")
    }

    @Test func twoValuesThatOverlapAreHiddenAsOneWithNoTailShowing() {
        // Given two declared values, the second starting inside the first
        let store = CredentialStore()
        store.declare(value: "tok_12345678")
        store.declare(value: "12345678abcdefgh")
        // When, Then the text that holds both, overlapping, shows neither's tail
        #expect(store.redactValues(in: "[tok_12345678abcdefgh]") == "[REDACTED]")
    }

    @Test func valuesThatComeAndGoNeverFillTheMatchersFilter() {
        // Given a matcher through which 2,000 values pass, one at a time
        var matcher = SecretMatcher(forms: ["a-value-kept-always"])
        for index in 0..<2_000 {
            let forms = ["\(UUID().uuidString)-passing-\(index)"]
            matcher.insert(forms: forms)
            matcher.remove(forms: forms)
        }
        // Then its filter holds about the bits of what it keeps, and it still finds that
        #expect(matcher.filterPopulation < 64)
        #expect(matcher.isFound(in: "… a-value-kept-always …"))
    }

    @Test func dumpingAnErrorShowsItsRedactedDescriptionOnly() async throws {
        // Given an HTTP error whose URL carries a key and whose answer sets a cookie
        let key = Self.secret()
        let thrown = try #require(
            await error {
                try await NetworkProvider(
                    session: .status(500, headers: ["Set-Cookie": "sid=\(key)"])
                ).send(
                    Endpoint<Data>(
                        baseURL: exampleURL, path: "a", queryItems: [.init(name: "apiKey", value: key)]))
            })
        // When it is dumped
        var dumped = ""
        dump(thrown, to: &dumped)
        // Then the key is in neither the dump nor the description
        #expect(!dumped.contains(key))
        #expect(dumped.contains("HTTP 500"))
    }

    // MARK: - Defect 12: dump(provider)

    @Test func dumpingAProviderShowsNoCredentialOfItsSessionsConfigurationOrMiddlewares() {
        // Given a provider whose session sends a credential header, with a middleware holding a token
        let token = Self.secret()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["Authorization": "Bearer \(token)", "Accept": "text/plain"]
        let provider = NetworkProvider(
            session: URLSession(configuration: configuration),
            middlewares: [HeaderMiddleware(name: "X-Api-Key", value: token)])
        // When it is dumped, printed and mirrored
        var dumped = ""
        dump(provider, to: &dumped)
        let shown = [dumped, "\(provider)", String(reflecting: provider)]
        // Then the token shows in none, and the dump still says what the provider is made of
        for text in shown { #expect(!text.contains(token)) }
        #expect(dumped.contains("HeaderMiddleware"))
        #expect(dumped.contains("URLSession"))
    }
}

/// A middleware of an app's own that keeps a credential in a stored property.
private struct HeaderMiddleware: NetworkMiddleware {
    let name: String
    let value: String

    func intercept(
        _ request: URLRequest, context: RequestContext, next: NetworkMiddleware.Next
    ) async throws -> (Data, HTTPURLResponse) {
        var request = request
        request.setValue(value, forHTTPHeaderField: name)
        return try await next(request)
    }
}

/// An event's public part names what happened, never the URL, the body or the error's text.
@Suite("NetworkEvent.publicDescription")
struct EventPublicDescriptionTests {
    @Test func aFailedEventsPublicPartHasTheEndpointStatusAndErrorKindButNoURLOrBody() async throws {
        // Given a search that fails with a body naming the user's search term
        let lines = Recorder<String>()
        let provider = NetworkProvider(
            session: .status(404, body: Data("no film called secret-garden-2024".utf8)),
            configuration: .init(onEvent: { event in
                if case .failed = event { lines.append(event.publicDescription) }
            }))
        // When it is sent
        _ = await error {
            try await provider.send(
                Endpoint<Data>(
                    baseURL: exampleURL, path: "search", queryItems: [.init(name: "q", value: "garden")]))
        }
        // Then the public line says what failed and how, and nothing the user typed
        let line = try #require(lines.values.first)
        #expect(line.hasPrefix("failed GET search (404 in "))
        #expect(line.hasSuffix("): unacceptableStatus"))
        #expect(!line.contains("garden"))
        #expect(!line.contains("api.example.com"))
    }
}
