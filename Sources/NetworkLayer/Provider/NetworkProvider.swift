import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends endpoints through a session and a middleware chain, and decodes their responses.
///
/// ```swift
/// let provider = NetworkProvider(middlewares: [RetryMiddleware()])
/// let daily = try await provider.send(KobisAPI.dailyBoxOffice(date: "20261121"))
/// ```
///
/// For each request the provider builds the `URLRequest`, runs the middlewares in order, sends through
/// the session with the endpoint's timeout enforced by the provider itself, checks the status against
/// the endpoint's acceptable codes, runs the endpoint's `validate` hook, and decodes.
///
/// Errors are ``NetworkError``s; cancelling the calling task cancels the request and throws
/// `CancellationError` (URLSession's `URLError.cancelled` is mapped to it).
public final class NetworkProvider: Sendable {
    /// Options for a ``NetworkProvider``.
    public struct Configuration: Sendable {
        /// Whether identical whole-body `GET`s in flight at the same time (``NetworkProvider/send(_:)``,
        /// ``NetworkProvider/response(for:)``) share one transport call; streams and downloads never
        /// do. `false` by default.
        public var coalescesIdenticalGETs: Bool
        /// The clock whole-body requests' timeouts are measured with. With the default,
        /// `ContinuousClock()`, the provider watches them on its shared timer, which counts the system's
        /// uptime (`DispatchTime`): like ContinuousClock on Linux, but, on Apple platforms, without the
        /// time the device sleeps. Any other clock (a test's) is slept on as it is. Streams, downloads and
        /// uploads always use the uptime timer.
        public var clock: any Clock<Duration>
        /// The largest whole-body response accepted, in bytes, unless the endpoint sets its own
        /// ``Endpoint/maximumResponseSize``; 32 MiB by default. A larger body fails with
        /// ``NetworkError/responseTooLarge(limit:)``: refused on its `Content-Length` before it is read,
        /// and stopped as soon as the bytes received (after decompression) pass the limit, so memory
        /// stays bounded by the limit. A custom ``NetworkSessionType`` returns bodies whole, so with one
        /// the limit is checked on what it returns.
        public var maximumResponseSize = 32 << 20
        /// The most bytes a stream holds for a reader that falls behind; 8 MiB by default (at least
        /// 64 KiB). Past it the transfer stops and the reader, after the chunks already held, gets
        /// ``ResponseStreamError/readerFellBehind(limit:)``: URLSession on Linux has no flow control to
        /// slow the server down with.
        public var streamBufferLimit = 8 << 20
        /// Called with each ``NetworkEvent`` (started, retried, finished, failed) of every request, on the
        /// task that caused it; `nil` by default. Keep it quick: it runs inline.
        public var onEvent: (@Sendable (NetworkEvent) -> Void)?
        /// How many bytes a `GET` download through a `URLSession` asks for per request
        /// (`Range: bytes=first-last`), one window after another, from servers that serve ranges; at
        /// least 64 KiB. 8 MiB by default on Linux; `nil` by default on Apple platforms.
        ///
        /// With `nil` (or a value below 1), on Apple platforms URLSession writes the file itself with a
        /// download task, and a dropped download resumes from the resume data URLSession leaves; on
        /// Linux the whole body is asked for in one data request. URLSession's data tasks on Linux have
        /// no flow control: bytes keep arriving while the disk is slower than the network, and wait in
        /// memory. A window bounds that: the next is asked for only once no more than one window waits
        /// to be written. A server that ignores ranges answers the first window with the whole body
        /// (`200`), as without windows. Each window is a request of its own: a URL that expires while
        /// the download runs (a presigned link) is refused for the windows after it expires, so give
        /// such downloads `nil` or a window as large as the file. A background session ignores it: its
        /// downloads are download tasks.
        public var downloadWindow: Int? = runsOnFoundationNetworking ? 8 << 20 : nil
        /// Header fields your own code sets (a middleware of yours, the session's configuration) that
        /// carry credentials, declared to ``Credentials`` when the provider is made. Whatever their
        /// names, they are hidden from logs, errors and recordings (by name, and by the values each
        /// attempt carries), stripped from a redirect to another origin, and refused by a background
        /// session unless it may send credentials. Empty by default; ``AuthorizationMiddleware`` and an
        /// ``EndpointGroup``'s credentials declare their own.
        public var credentialHeaders: Set<String> = []
        /// Query items your own code sets that carry credentials, declared the same way. Empty by
        /// default.
        public var credentialQueryItems: Set<String> = []
        /// The HTTP cache whole-body `GET`s go through (``HTTPCache``), or `nil` (the default) for none.
        /// Each endpoint says how it uses it (``Endpoint/cachePolicy``). Streams, downloads and uploads
        /// never use it.
        public var httpCache: HTTPCache?

        /// Creates a configuration.
        /// - Parameters:
        ///   - coalescesIdenticalGETs: Share one transport call between identical in-flight `GET`s;
        ///     `false` by default.
        ///   - clock: The clock for timeouts; `ContinuousClock()` by default.
        ///   - onEvent: Receives every request's events; `nil` by default.
        public init(
            coalescesIdenticalGETs: Bool = false, clock: any Clock<Duration> = ContinuousClock(),
            onEvent: (@Sendable (NetworkEvent) -> Void)? = nil
        ) {
            self.coalescesIdenticalGETs = coalescesIdenticalGETs
            self.clock = clock
            self.onEvent = onEvent
        }
    }

    /// The session the provider was given: a `URLSession` (whose configuration and delegate the
    /// provider's own delegate session is made from), or another ``NetworkSessionType`` it calls as it is.
    public let session: any NetworkSessionType
    /// The middlewares, outermost first.
    public let middlewares: [any NetworkMiddleware]
    /// The options.
    public let configuration: Configuration
    /// Shares identical GETs' transport calls (``Configuration/coalescesIdenticalGETs``).
    let coalescer: RequestCoalescer
    /// What sends each attempt, chosen once from `session`.
    let transport: any Transport

    /// How many requests wait for a coalesced transport call (for tests).
    var coalescedWaiters: Int { coalescer.waitingCount }

    /// Creates a provider.
    /// - Parameters:
    ///   - session: What requests go through: a `URLSession` (`URLSession.shared` by default), whose
    ///     configuration and delegate the provider's own session is made from, or a ``StubSession``,
    ///     a ``RecordReplaySession`` or one of your own, called as it is.
    ///   - middlewares: Run in order around every request, the first outermost; none by default.
    ///   - configuration: Coalescing and the clock; see ``Configuration``.
    public convenience init(
        session: any NetworkSessionType = URLSession.shared,
        middlewares: [any NetworkMiddleware] = [],
        configuration: Configuration = Configuration()
    ) {
        self.init(session: session, middlewares: middlewares, configuration: configuration, seams: Seams())
    }

    /// A provider whose internals tests reach through `seams`, on the transport `transport` makes from
    /// the whole-body calls' timeouts and coalescing, or on the one `session` calls for.
    init(
        session: any NetworkSessionType, middlewares: [any NetworkMiddleware], configuration: Configuration,
        seams: Seams, transport make: ((WholeBodyCalls) -> any Transport)? = nil
    ) {
        let coalescer = RequestCoalescer()
        let calls = WholeBodyCalls(
            coalescer: configuration.coalescesIdenticalGETs ? coalescer : nil, clock: configuration.clock,
            deadlines: seams.deadlines)
        self.session = session
        self.middlewares = middlewares
        self.configuration = configuration
        self.coalescer = coalescer
        Credentials.declare(
            headerNames: configuration.credentialHeaders, queryNames: configuration.credentialQueryItems)
        transport =
            make?(calls)
            ?? makeTransport(for: session, configuration: configuration, seams: seams, calls: calls)
    }

    deinit {
        transport.invalidate()
    }

    /// Sends `endpoint` and returns its decoded response.
    /// - Parameter endpoint: The endpoint to send.
    /// - Returns: The decoded response.
    /// - Throws: ``NetworkError``, or `CancellationError` when the calling task is cancelled.
    public func send<Response>(_ endpoint: Endpoint<Response>) async throws -> Response {
        try await response(for: endpoint).value
    }

    /// Sends `endpoint` and returns the decoded response with the raw body and HTTP response.
    /// - Parameter endpoint: The endpoint to send.
    /// - Returns: The value, the body and the `HTTPURLResponse`.
    /// - Throws: ``NetworkError``, or `CancellationError` when the calling task is cancelled.
    public func response<Response>(for endpoint: Endpoint<Response>) async throws -> NetworkResponse<Response>
    {
        let request = try endpoint.makeRequest()
        let context = endpoint.context
        return try await observing(request, context: context) {
            try await exchangeWholeBody(endpoint, request: request, context: context, retrying: true)
        }
    }

    /// One whole-body exchange of `endpoint` and its decoding, in `context` (its metrics and events),
    /// through the HTTP cache when there is one. A stored answer the endpoint refuses (an app update
    /// changed the type, say) is removed: a stale one stood in for a failure, which is then the news; a
    /// fresh one is asked for again once, without the store (`retrying`), under the first exchange's
    /// cache generation, so a `removeAll()` in between still drops the answer.
    private func exchangeWholeBody<Response>(
        _ endpoint: Endpoint<Response>, request: URLRequest, context: RequestContext, retrying: Bool,
        generation: Int? = nil
    ) async throws -> NetworkResponse<Response> {
        var context = context
        if let cache = configuration.httpCache {
            context.cacheExchange = CacheExchange(
                cache: cache, policy: endpoint.cachePolicy, asSent: transport.asSent,
                generation: generation
            ) { data, http in (try? Self.decode(data, http, for: endpoint)) != nil }
        }
        let rules = endpoint.rules(defaultLimit: configuration.maximumResponseSize)
        let (data, http) = try await exchange(request, context: context) { [transport] request, record in
            let sink = ResponseSink(.whole, rules: rules, method: request.httpMethod)
            return try await transport.send(request, upload: nil, into: sink, rules: rules, record: record)
        }
        let decoded: NetworkResponse<Response>
        do {
            decoded = try Self.decode(data, http, for: endpoint)
        } catch {
            guard let cache = context.cacheExchange, let refused = cache.refused() else { throw error }
            if case .staleAfterError(_, let failure) = refused { throw failure }
            guard retrying, endpoint.cachePolicy.rule != .onlyIfCached else { throw NetworkError.notCached }
            var again = endpoint
            again.cachePolicy.rule = .reload
            return try await exchangeWholeBody(
                again, request: request, context: context, retrying: false, generation: cache.generation)
        }
        var response = decoded
        response.metrics = context.metrics.attempts
        if let cache = context.cacheExchange { response.source = cache.commit() }
        return response
    }
}

extension HTTPURLResponse {
    /// The header fields as strings.
    var headerFields: [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in allHeaderFields {
            fields["\(name)"] = "\(value)"
        }
        return fields
    }
}
