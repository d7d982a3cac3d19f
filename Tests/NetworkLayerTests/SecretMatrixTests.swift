import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every kind of secret a request can carry × every output NetworkLayer writes a request or its answer
/// to: no cell holds the secret, in UTF-8 or in UTF-16 of either byte order. The server echoes the secret
/// bare in an error body, repeats it in a `Link` header, and echoes it in a header of a cacheable answer.
@Suite("Secrets: every kind in every output")
struct SecretMatrixTests {
    /// How a request carries the secret.
    enum Kind: String, CaseIterable, Sendable {
        case declaredHeader, declaredQueryItem, queryItemNamedLikeAKey, headerNamedLikeAKey, credentialCookie
        case pathToken, bearerToken
    }

    /// One output's text or bytes, named for the failure message.
    struct Cell {
        let name: String
        let bytes: Data
    }

    /// A store that writes each answer to a file of its own, named by a digest of its key, holding the
    /// key and the serialized answer: the HTTP cache's files.
    final class FileStore: HTTPCacheStore {
        let folder: URL
        init(folder: URL) { self.folder = folder }
        private func file(_ key: String) -> URL { folder.appendingPathComponent(SHA256.hex(Data(key.utf8))) }
        func response(forKey key: String) -> CachedHTTPResponse? {
            guard let data = try? Data(contentsOf: file(key)), let newline = data.firstIndex(of: 0x0A) else {
                return nil
            }
            return try? CachedHTTPResponse(serialized: Data(data[data.index(after: newline)...]))
        }
        func store(_ response: CachedHTTPResponse, forKey key: String) {
            try? (Data((key + "\n").utf8) + response.serialized()).write(to: file(key))
        }
        func removeResponse(forKey key: String) { try? FileManager.default.removeItem(at: file(key)) }
        func removeAll() {}
    }

    /// The endpoint at `path` carrying `secret` as `kind` says, and the middlewares that add it.
    func endpoint(_ kind: Kind, _ path: String, _ secret: String) -> (Endpoint<Data>, [any NetworkMiddleware])
    {
        var endpoint = Endpoint<Data>(baseURL: exampleURL, path: path)
        switch kind {
        case .declaredHeader:
            let group = EndpointGroup(baseURL: exampleURL, credentialHeaders: ["X-Matrix-Pass": secret])
            return (group.get(path, as: Data.self), [])
        case .declaredQueryItem:
            let group = EndpointGroup(
                baseURL: exampleURL, credentialQueryItems: [URLQueryItem(name: "scope", value: secret)])
            return (group.get(path, as: Data.self), [])
        case .queryItemNamedLikeAKey:
            endpoint.queryItems = [URLQueryItem(name: "apiKey", value: secret)]
        case .headerNamedLikeAKey:
            endpoint.headers["X-Api-Key"] = secret
        case .credentialCookie:
            endpoint.headers["Cookie"] = "theme=dark; sid=\(secret)"
        case .pathToken:
            // Only a declaration can say a path segment is secret.
            Credentials.declare(value: secret)
            endpoint = Endpoint<Data>(baseURL: exampleURL, path: "bot\(secret)/\(path)")
        case .bearerToken:
            return (endpoint, [AuthorizationMiddleware(hosts: ["api.example.com"]) { secret }])
        }
        return (endpoint, [])
    }

    /// A server that fails `…/fail` with a `401` echoing the secret, and answers anything else with a
    /// cacheable `200` whose header echoes it.
    func server(echoing secret: String, sent: Recorder<URLRequest>) -> StubSession {
        StubSession { request in
            sent.append(request)
            if request.url?.path.hasSuffix("plain") == true {
                return (
                    Data("{}".utf8),
                    try StubSession.makeResponse(
                        for: request, status: 200, headers: ["Cache-Control": "max-age=60"])
                )
            }
            if request.url?.path.hasSuffix("echo") == true {
                return (
                    Data("{\"yours\":\"\(secret)\"}".utf8),
                    try StubSession.makeResponse(
                        for: request, status: 200, headers: ["Cache-Control": "max-age=60"])
                )
            }
            if request.url?.path.hasSuffix("fail") == true {
                let link = "<https://api.example.com/v1/next?apiKey=\(secret)>; rel=\"next\""
                return (
                    Data("rejected \(secret)".utf8),
                    try StubSession.makeResponse(for: request, status: 401, headers: ["Link": link])
                )
            }
            return (
                Data("{}".utf8),
                try StubSession.makeResponse(
                    for: request, status: 200, headers: ["Cache-Control": "max-age=60", "X-Echo": secret])
            )
        }
    }

    @Test(arguments: Kind.allCases)
    func noOutputHoldsTheSecret(kind: Kind) async throws {
        // Given a request carrying a secret as `kind` says, a server that echoes it, and every output on
        let secret = "MATRIX-\(UUID().uuidString.prefix(20))"
        let folder = try TemporaryFolder.create("matrix")
        let cacheFolder = folder.url.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cacheFolder, withIntermediateDirectories: true)
        let sent = Recorder<URLRequest>()
        let session = server(echoing: secret, sent: sent)
        let logs = Recorder<String>()
        let events = Recorder<String>()
        var configuration = NetworkProvider.Configuration()
        configuration.onEvent = { events.append("\($0)") }
        configuration.httpCache = HTTPCache(store: FileStore(folder: cacheFolder))
        let (failing, middlewares) = endpoint(kind, "fail", secret)
        let (cacheable, _) = endpoint(kind, "ok", secret)
        let (plain, _) = endpoint(kind, "plain", secret)
        let (echoing, _) = endpoint(kind, "echo", secret)
        let provider = NetworkProvider(
            session: session,
            middlewares: middlewares + [LoggingMiddleware(logsHeaders: true) { logs.append($0) }],
            configuration: configuration)
        let recordings = folder.url.appendingPathComponent("recordings")
        let recorder = NetworkProvider(
            session: RecordReplaySession(directory: recordings, mode: .record(upstream: session)),
            middlewares: middlewares)

        // When both requests are sent, recorded, journaled, rendered and dumped
        let thrown = try #require(await error { try await provider.send(failing) })
        _ = try await provider.send(cacheable)
        _ = try await provider.send(plain)
        _ = try await provider.send(echoing)
        _ = await error { try await recorder.send(failing) }
        _ = try await recorder.send(cacheable)
        let journal = BackgroundJournal(folder: folder.url.appendingPathComponent("journal"))
        let answer = try StubSession.makeResponse(
            for: URLRequest(
                url: exampleURL.appending(queryItems: [URLQueryItem(name: "apiKey", value: secret)])),
            status: 401, headers: ["Link": "<?apiKey=\(secret)>"])
        journal.write(
            BackgroundTransfer(
                endpoint: failing.name, kind: .upload, response: answer,
                body: Data("rejected \(secret)".utf8),
                error: thrown as? NetworkError),
            name: "transfer")
        var dumps = ""
        dump(failing, to: &dumps)
        dump(provider, to: &dumps)
        dump(session.requests, to: &dumps)

        // Then no cell holds the secret
        var cells = [
            Cell(name: "log lines", bytes: Data(logs.values.joined(separator: "\n").utf8)),
            Cell(name: "error description", bytes: Data(String(describing: thrown).utf8)),
            Cell(name: "event lines", bytes: Data(events.values.joined(separator: "\n").utf8)),
            Cell(name: "cURL of the endpoint", bytes: Data(failing.cURLDescription().utf8)),
            Cell(
                name: "cURL of each request as sent",
                bytes: Data(sent.values.map(Redaction.cURL).joined(separator: "\n").utf8)),
            Cell(name: "dump and print", bytes: Data((dumps + "\(failing)\(provider)").utf8)),
            Cell(name: "StubSession.requests", bytes: Data("\(session.requests)".utf8)),
        ]
        cells += try files(in: recordings, named: "recording")
        cells += try files(in: journal.folder, named: "journal")
        cells += try files(in: cacheFolder, named: "HTTP cache file")
        #expect(try !FileManager.default.contentsOfDirectory(atPath: recordings.path).isEmpty)
        #expect(try !FileManager.default.contentsOfDirectory(atPath: journal.folder.path).isEmpty)
        #expect(try !FileManager.default.contentsOfDirectory(atPath: cacheFolder.path).isEmpty)
        for cell in cells {
            #expect(!holds(cell.bytes, secret), "\(kind): the \(cell.name) holds the secret")
        }
    }

    /// Every file below `folder`, and its name, as cells.
    func files(in folder: URL, named name: String) throws -> [Cell] {
        let paths = FileManager.default.subpaths(atPath: folder.path) ?? []
        return paths.flatMap { path -> [Cell] in
            let url = folder.appendingPathComponent(path)
            return [
                Cell(name: "\(name) name \(path)", bytes: Data(path.utf8)),
                Cell(name: "\(name) \(path)", bytes: (try? Data(contentsOf: url)) ?? Data()),
            ]
        }
    }

    /// Whether `bytes` hold `secret` in UTF-8 or in UTF-16 of either byte order.
    func holds(_ bytes: Data, _ secret: String) -> Bool {
        [String.Encoding.utf8, .utf16LittleEndian, .utf16BigEndian].contains { encoding in
            secret.data(using: encoding).map { bytes.range(of: $0) != nil } ?? false
        }
    }
}
