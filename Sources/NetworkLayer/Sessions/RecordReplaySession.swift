import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A session that stores real exchanges in a folder and replays them offline: for tests that must not
/// touch the network, demo modes, and bug reports ("here is the exact response").
///
/// ```swift
/// // Once, online:
/// let recorder = RecordReplaySession(directory: fixtures, mode: .record(upstream: URLSession.shared))
/// // From then on, offline:
/// let replay = RecordReplaySession(directory: fixtures, mode: .replay)
/// ```
///
/// Each exchange is one readable JSON file (method, URL, status, headers, and the body as text when it
/// is UTF-8, base64 otherwise). Requests match by method, path and query. A query item declared a
/// credential (``Credentials``: an ``EndpointGroup``'s `credentialQueryItems`, say), one named as a
/// credential (``Redaction``'s names, or a word of its fragments ending the name or a part of it: `key`,
/// `apiKey`, `access_key`, `serviceKey`, `X-Amz-Signature`, `session_id`), and one whose value holds a
/// declared credential's are left out of the match and never written, so a recording made with an API
/// key replays with another key or none. One whose name only begins with such a word (`keyword`,
/// `secretary`) is matched by a hash of its value, never written either, so `?keyword=apple` and
/// `?keyword=banana` are two recordings. A declared credential's value in the path is hidden too.
/// Credential response headers (`Set-Cookie`, a declared one, …) are written as `REDACTED`, and so are
/// secrets in a body (a key an error body echoes, a `"token"` field, a declared credential's value in a
/// `Link` header or anywhere else), in UTF-8, UTF-16 or a charset that keeps ASCII as it is (Latin-1,
/// EUC-KR): a replay returns the body as written.
public final class RecordReplaySession: NetworkSessionType {
    /// Where answers come from.
    public enum Mode: Sendable {
        /// Only from the folder; a request without a recording fails with ``RecordReplayError``.
        case replay
        /// Always from `upstream`, each exchange written to the folder.
        case record(upstream: any NetworkSessionType)
        /// From the folder when recorded, otherwise from `upstream`, and then recorded.
        case replayOrRecord(upstream: any NetworkSessionType)
    }

    /// The folder holding the exchanges.
    public let directory: URL
    /// Where answers come from.
    public let mode: Mode

    /// Creates the session.
    /// - Parameters:
    ///   - directory: The folder; created on the first recording.
    ///   - mode: Replay, record, or both.
    public init(directory: URL, mode: Mode) {
        self.directory = directory
        self.mode = mode
    }

    /// Answers from a recording, or from upstream (recording the exchange), as the mode says.
    /// - Parameter request: The request.
    /// - Returns: The body and response.
    /// - Throws: ``RecordReplayError`` for a missing or unreadable recording or a failed write; upstream's
    ///   errors when recording.
    public func response(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let file = fileURL(for: request)
        switch mode {
        case .replay:
            return try replay(request, from: file)
        case .record(let upstream):
            return try await record(request, through: upstream, to: file)
        case .replayOrRecord(let upstream):
            if FileManager.default.fileExists(atPath: file.path) { return try replay(request, from: file) }
            return try await record(request, through: upstream, to: file)
        }
    }

    /// The file that holds, or would hold, the recording of `request`.
    /// - Parameter request: The request.
    /// - Returns: A readable name (method, path, query) with a short hash, inside ``directory``.
    public func fileURL(for request: URLRequest) -> URL {
        let key = Self.matchingKey(for: request)
        var readable = key.map { $0.isLetter || $0.isNumber || "._-".contains($0) ? $0 : "_" }
        if readable.count > 120 { readable = Array(readable.prefix(120)) }
        return directory.appendingPathComponent("\(String(readable))-\(Self.shortHash(key)).json")
    }

    // MARK: - Replaying and recording

    private func replay(_ request: URLRequest, from file: URL) throws -> (Data, HTTPURLResponse) {
        guard let data = try? Data(contentsOf: file) else {
            throw RecordReplayError.noRecording(
                request: Self.matchingKey(for: request), expectedFile: file.path)
        }
        let exchange: Exchange
        do {
            exchange = try JSONDecoder().decode(Exchange.self, from: data)
        } catch {
            throw RecordReplayError.unreadableRecording(file: file.path, reason: "\(error)")
        }
        guard let body = exchange.bodyData else {
            throw RecordReplayError.unreadableRecording(
                file: file.path, reason: "bodyBase64 is not valid base64")
        }
        // A body whose secrets were hidden is shorter than the length recorded with it: the length
        // replayed is the body's own, or a download would take it for a dropped connection.
        var headers = exchange.headers
        for name in headers.keys where name.isHeaderName("Content-Length") {
            headers[name] = String(body.count)
        }
        return (
            body,
            try StubSession.makeResponse(for: request, status: exchange.status, headers: headers)
        )
    }

    private func record(
        _ request: URLRequest, through upstream: any NetworkSessionType, to file: URL
    ) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await upstream.response(for: request)
        let exchange = Exchange(
            method: request.httpMethod ?? "GET", url: Redaction.redact(request.url),
            status: response.statusCode,
            headers: Redaction.redact(response.headerFields), body: data,
            isText: Self.isText(response.value(forHTTPHeaderField: "Content-Type")))
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(exchange).write(to: file, options: .atomic)
        } catch {
            throw RecordReplayError.cannotWrite(file: file.path, reason: "\(error)")
        }
        return (data, response)
    }

    // MARK: - Matching

    /// Method, path and the query, sorted: without credentials (declared, named as one, or carrying a
    /// declared value), with the value of a parameter whose name only contains a secret's word as a hash,
    /// and with a declared value in the path hidden.
    static func matchingKey(for request: URLRequest) -> String {
        let method = request.httpMethod ?? "GET"
        guard let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return method }
        let query = (components.percentEncodedQueryItems ?? [])
            .filter { item in
                !namesACredential(item.name) && !SecretRule.carriesDeclaredValue(item.value ?? "")
            }
            .map { item in
                let value = item.value ?? ""
                return "\(item.name)="
                    + (Redaction.isSensitive(queryName: item.name) ? "#" + shortHash(value) : value)
            }
            .sorted().joined(separator: "&")
        let path = CredentialStore.shared.redactDeclaredValues(in: components.percentEncodedPath)
        return "\(method) \(path)" + (query.isEmpty ? "" : "?\(query)")
    }

    /// Whether a query parameter's name names a credential (``SecretRule``): declared, one of
    /// ``Redaction/sensitiveQueryNames``, or a name where one of ``Redaction/sensitiveQueryFragments``
    /// ends a word (`key`, `apiKey`, `access_key`, `X-Amz-Signature`, `session_id`, `PHPSESSID`), not where
    /// it only begins a longer one (`keyword`, `secretary`, `tokenizer`).
    static func namesACredential(_ name: String) -> Bool {
        SecretRule.verdict(queryName: name) >= .namesSecret
    }

    /// Whether a body of this content type is text (whatever its charset), to be redacted as text.
    static func isText(_ contentType: String?) -> Bool {
        guard let type = contentType?.lowercased() else { return false }
        return ["text/", "json", "xml", "html", "javascript", "x-www-form-urlencoded"].contains(
            where: type.contains)
    }

    private static func shortHash(_ string: String) -> String {
        String(FNVHash.hex(string).suffix(8))
    }
}

/// A recording that could not be replayed or written.
///
/// It grows: a minor version may add a case, so a `switch` over it ends with `@unknown default:`
/// (Docs/Versioning.md, "How public errors grow").
public enum RecordReplayError: Error, Sendable, CustomStringConvertible {
    /// No recording exists for the request.
    case noRecording(request: String, expectedFile: String)
    /// The recording file is not a valid exchange.
    case unreadableRecording(file: String, reason: String)
    /// The exchange could not be written.
    case cannotWrite(file: String, reason: String)

    /// What went wrong and how to fix it.
    public var description: String {
        switch self {
        case .noRecording(let request, let file):
            return
                "No recording for \(request) (expected \(file)). Record it once with mode .record or .replayOrRecord."
        case .unreadableRecording(let file, let reason):
            return "The recording \(file) cannot be read: \(reason). Delete it and record again."
        case .cannotWrite(let file, let reason):
            return "Cannot write the recording \(file): \(reason)."
        }
    }
}

/// One stored exchange, as written to disk.
struct Exchange: Codable {
    var method: String
    var url: String
    var status: Int
    var headers: [String: String]
    /// The body when it is UTF-8 text.
    var body: String?
    /// The body in base64 when it is not.
    var bodyBase64: String?

    /// - Parameter isText: Whether the body is text in some charset: one that is not UTF-8 (EUC-KR,
    ///   Latin-1) is redacted byte for byte as Latin-1, which keeps every byte it does not hide.
    init(
        method: String, url: String, status: Int, headers: [String: String], body: Data, isText: Bool = false
    ) {
        self.method = method
        self.url = url
        self.status = status
        self.headers = headers
        // A key the server echoes (an error body repeating the request's URL) is not written either, in
        // whatever encoding the body is in (``BodyText``).
        let hidden = BodyText.redacted(body, isText: isText)
        if BodyText.isPlainUTF8([UInt8](hidden)),
            let text = String(data: hidden, encoding: .utf8)
        {
            self.body = text
        } else {
            self.bodyBase64 = hidden.base64EncodedString()
        }
    }

    var bodyData: Data? {
        if let bodyBase64 { return Data(base64Encoded: bodyBase64) }
        return Data((body ?? "").utf8)
    }
}
