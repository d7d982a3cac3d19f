import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A session whose answers come from a closure: for tests, previews and demo modes.
///
/// ```swift
/// let provider = NetworkProvider(session: StubSession.json(#"{"title":"Wonka"}"#))
/// let flaky = StubSession.sequence([.status(503), .json(#"{"ok":true}"#)])
/// let routed = StubSession.routes(["/v2/search/image": .json(imageJSON)], fallback: .status(404))
/// ```
///
/// Each session keeps the requests it received, credentials hidden, in ``requests`` (copies of a session
/// share them), so a test can check what was sent:
/// ```swift
/// #expect(session.requests.map(\.method) == ["POST", "GET"])
/// ```
public struct StubSession: NetworkSessionType {
    /// Answers one request.
    public typealias Handler = @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)

    /// How many requests ``requests`` keeps: the latest 1,000.
    public static let recordedLimit = 1_000

    private let handler: Handler
    /// The requests as received, without their bodies, redacted only when read (a stub in a benchmark
    /// pays one append); at most twice ``recordedLimit``, halved when full, so an append costs the same
    /// however many came before.
    private let recorded = Locked<[RecordedRequest.Sent]>([])

    /// Creates a session answering with `handler`.
    /// - Parameter handler: Returns the body and response for a request, or throws.
    public init(_ handler: @escaping Handler) {
        self.handler = handler
    }

    /// The requests this session (or a copy of it) received, oldest first: the latest
    /// ``recordedLimit``, each with its credentials hidden (``RecordedRequest``).
    public var requests: [RecordedRequest] {
        recorded.withLock { $0.suffix(Self.recordedLimit) }.map(RecordedRequest.init)
    }

    /// Records `request`, then answers it with the handler.
    /// - Parameter request: The request.
    /// - Returns: The handler's body and response.
    /// - Throws: What the handler throws.
    public func response(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let sent = RecordedRequest.Sent(request)
        recorded.withLock { requests in
            if requests.count >= 2 * Self.recordedLimit { requests.removeFirst(Self.recordedLimit) }
            requests.append(sent)
        }
        return try await handler(request)
    }

    // MARK: - Presets

    /// Answers every request with `body` and `status`.
    /// - Parameters:
    ///   - status: The status code; 200 by default.
    ///   - body: The body; empty by default.
    ///   - headers: The header fields; none by default.
    /// - Returns: The session.
    public static func status(_ status: Int, body: Data = Data(), headers: [String: String] = [:])
        -> StubSession
    {
        StubSession { request in
            (body, try makeResponse(for: request, status: status, headers: headers))
        }
    }

    /// Answers every request with a JSON body.
    /// - Parameters:
    ///   - json: The body's text.
    ///   - status: The status code; 200 by default.
    /// - Returns: The session.
    public static func json(_ json: String, status: Int = 200) -> StubSession {
        .status(status, body: Data(json.utf8), headers: ["Content-Type": "application/json; charset=utf-8"])
    }

    /// Answers every request with `value` encoded as JSON.
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - status: The status code; 200 by default.
    /// - Returns: The session; it throws `EncodingError` per request if `value` does not encode.
    public static func json<Value: Encodable & Sendable>(encoding value: Value, status: Int = 200)
        -> StubSession
    {
        StubSession { request in
            let body = try JSONEncoder().encode(value)
            let response = try makeResponse(
                for: request, status: status, headers: ["Content-Type": "application/json; charset=utf-8"])
            return (body, response)
        }
    }

    /// Fails every request with `error`.
    /// - Parameter error: The transport error, such as `URLError(.notConnectedToInternet)`.
    /// - Returns: The session.
    public static func failing(_ error: URLError) -> StubSession {
        StubSession { _ in throw error }
    }

    /// Answers each request with the next session in `sessions`; the last one answers all the rest.
    /// - Parameter sessions: The answers, in order (for example a 503, then a 200).
    /// - Returns: The session.
    public static func sequence(_ sessions: [StubSession]) -> StubSession {
        let next = Locked(0)
        return StubSession { request in
            let index = next.withLock { index -> Int in
                defer { index += 1 }
                return index
            }
            guard let session = sessions.isEmpty ? nil : sessions[min(index, sessions.count - 1)] else {
                throw URLError(.resourceUnavailable)
            }
            return try await session.response(for: request)
        }
    }

    /// Answers by the request's URL path; requests to other paths go to `fallback`.
    /// - Parameters:
    ///   - routes: Sessions by exact URL path (`"/v2/search/image"`).
    ///   - fallback: Answers other paths; a 404 by default.
    /// - Returns: The session.
    public static func routes(_ routes: [String: StubSession], fallback: StubSession = .status(404))
        -> StubSession
    {
        StubSession { request in
            let path = request.url?.path ?? ""
            return try await (routes[path] ?? fallback).response(for: request)
        }
    }

    /// This session, answering only after `delay` (cancellable).
    /// - Parameter delay: How long each answer takes; at most a century (`.seconds(Int64.max)` is that).
    /// - Returns: The delayed session.
    public func delayed(by delay: Duration) -> StubSession {
        StubSession { request in
            try await Task.sleep(for: min(max(delay, .zero), .longestSleep))
            return try await self.response(for: request)
        }
    }

    /// An `HTTPURLResponse` for `request`, for a handler of your own to return with its body:
    /// ```swift
    /// let session = StubSession { request in
    ///     (Data(#"{"ok":true}"#.utf8), try StubSession.makeResponse(for: request, status: 200))
    /// }
    /// ```
    /// - Parameters:
    ///   - request: The request being answered.
    ///   - status: The status code.
    ///   - headers: The header fields.
    /// - Returns: The response.
    /// - Throws: `URLError(.badURL)` when the request has no URL.
    public static func makeResponse(
        for request: URLRequest, status: Int, headers: [String: String] = [:]
    ) throws -> HTTPURLResponse {
        guard let url = request.url,
            let response = HTTPURLResponse(
                url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
        else { throw URLError(.badURL) }
        return response
    }
}

extension NetworkSessionType where Self == StubSession {
    /// A ``StubSession`` answering every request with `status` and `body`, written `.status(…)` where a
    /// session is expected.
    /// - Parameters:
    ///   - status: The status code.
    ///   - body: The body; empty by default.
    ///   - headers: The header fields; none by default.
    /// - Returns: The session.
    public static func status(_ status: Int, body: Data = Data(), headers: [String: String] = [:])
        -> StubSession
    {
        StubSession.status(status, body: body, headers: headers)
    }

    /// A ``StubSession`` answering every request with a JSON body, written `.json(…)`.
    /// - Parameters:
    ///   - json: The body's text.
    ///   - status: The status code; 200 by default.
    /// - Returns: The session.
    public static func json(_ json: String, status: Int = 200) -> StubSession {
        StubSession.json(json, status: status)
    }

    /// A ``StubSession`` failing every request with `error`, written `.failing(…)`.
    /// - Parameter error: The transport error.
    /// - Returns: The session.
    public static func failing(_ error: URLError) -> StubSession {
        StubSession.failing(error)
    }

    /// A ``StubSession`` answering with each session in turn, written `.sequence([…])`.
    /// - Parameter sessions: The answers, in order; the last repeats.
    /// - Returns: The session.
    public static func sequence(_ sessions: [StubSession]) -> StubSession {
        StubSession.sequence(sessions)
    }
}
