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
        /// Whether identical `GET` requests in flight at the same time share one transport call.
        /// `false` by default.
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
        /// Whether a download without a window is a download task that URLSession writes itself: on
        /// Apple platforms. FoundationNetworking's download tasks leave their files in the temporary
        /// folder and give no resume data (measured), so Linux downloads run on data tasks; tests turn
        /// this on to run the download-task path there.
        var downloadsWithTasks = !runsOnFoundationNetworking
        /// Where deadlines on the continuous clock are watched (tests give a provider its own, to count
        /// its fires).
        var deadlines = DeadlineTimer.shared
        /// Writes one chunk of a download to its file (tests inject a failing one); `write(2)` by default.
        var downloadWrites: (@Sendable (Data, Int32) -> NetworkError?)?

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

    /// The transport.
    public let session: any NetworkSessionType
    /// The middlewares, outermost first.
    public let middlewares: [any NetworkMiddleware]
    /// The options.
    public let configuration: Configuration
    /// Shares identical GETs' transport calls (``Configuration/coalescesIdenticalGETs``).
    let coalescer = RequestCoalescer()
    /// `nil` until the first request, or for a background `URLSession` given to ``init(session:middlewares:configuration:)``;
    /// set at once by ``init(sessionConfiguration:delegate:delegateQueue:middlewares:configuration:sendsCredentialHeaders:finishedInBackground:)``.
    let transferSession = Locked<TransferSession?>(nil)
    /// The credential headers a provider on a background session adds, and whether it may send them; set
    /// by the same initializer. The session may be shared with another provider; these are this one's.
    let backgroundPolicy = Locked<BackgroundPolicy?>(nil)

    /// How many requests wait for a coalesced transport call (for tests).
    var coalescedWaiters: Int { coalescer.waitingCount }

    /// Creates a provider.
    /// - Parameters:
    ///   - session: The transport; `URLSession.shared` by default.
    ///   - middlewares: Run in order around every request, the first outermost; none by default.
    ///   - configuration: Coalescing and the clock; see ``Configuration``.
    public init(
        session: any NetworkSessionType = URLSession.shared,
        middlewares: [any NetworkMiddleware] = [],
        configuration: Configuration = Configuration()
    ) {
        self.session = session
        self.middlewares = middlewares
        self.configuration = configuration
    }

    deinit {
        transferSession.withLock { $0 }?.invalidate()
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
            let (data, http) = try await exchange(
                request, context: context,
                transport: dataTransport(
                    timeout: endpoint.attemptTimeout, rules: wholeBodyRules(of: endpoint)))
            var response = try Self.decode(data, http, for: endpoint)
            response.metrics = context.metrics.attempts
            return response
        }
    }

    /// Runs a whole request, reporting `finished` or `failed` to ``Configuration/onEvent``.
    func observing<Value>(
        _ request: URLRequest, context: RequestContext, _ body: () async throws -> Value
    ) async throws -> Value {
        do {
            let value = try await body()
            report(request, context: context) { .finished($0) }
            return value
        } catch {
            report(request, context: context) { .failed($0, error) }
            throw error
        }
    }

    private func report(
        _ request: URLRequest, context: RequestContext, _ event: (NetworkEvent.Summary) -> NetworkEvent
    ) {
        guard let onEvent = configuration.onEvent else { return }
        onEvent(event(Self.summary(of: request, context: context, metrics: context.metrics.last)))
    }

    /// What an event says about `request`: `metrics` for the attempt it is about, and every attempt so far.
    private static func summary(
        of request: URLRequest, context: RequestContext, metrics: RequestMetrics?
    ) -> NetworkEvent.Summary {
        NetworkEvent.Summary(
            endpointName: context.endpointName, redactedURL: Redaction.redact(request.url), metrics: metrics,
            attempts: context.metrics.attempts)
    }

    /// Checks the status, runs the `validate` hook and decodes: the last steps of every whole-body request.
    static func decode<Response>(
        _ data: Data, _ http: HTTPURLResponse, for endpoint: Endpoint<Response>
    ) throws -> NetworkResponse<Response> {
        try endpoint.checkStatus(of: http, body: data)
        if let validate = endpoint.validate {
            do {
                try validate(data, http)
            } catch {
                throw NetworkError.apiError(error)
            }
        }
        do {
            return NetworkResponse(value: try endpoint.decode(data, http), data: data, httpResponse: http)
        } catch let error as NetworkError {
            throw error
        } catch {
            throw NetworkError.decoding(
                error, type: String(describing: Response.self), body: data,
                convertsSnakeCase: endpoint.convertsSnakeCaseKeys)
        }
    }

    /// Runs the middleware chain around `transport` and maps what it throws.
    func exchange(
        _ request: URLRequest, context: RequestContext, transport: @escaping NetworkMiddleware.Next
    ) async throws -> (Data, HTTPURLResponse) {
        let chain = middlewares.reversed().reduce(instrumented(transport, context: context)) {
            next, middleware in
            { request in try await middleware.intercept(request, context: context, next: next) }
        }
        do {
            return try await chain(request)
        } catch {
            throw Self.map(error)
        }
    }

    /// `transport` recording each attempt in the context's metrics and reporting `started` / `retried`.
    private func instrumented(
        _ transport: @escaping NetworkMiddleware.Next, context: RequestContext
    ) -> NetworkMiddleware.Next {
        { [configuration] request in
            let log = context.metrics
            let metrics = log.begin(bytesSent: Int64(request.httpBody?.count ?? 0))
            if let onEvent = configuration.onEvent {
                let summary = Self.summary(of: request, context: context, metrics: metrics)
                onEvent(metrics.isRetry ? .retried(summary) : .started(summary))
            }
            return try await CurrentAttempt.$value.withValue(
                CurrentAttempt(log: log, number: metrics.attempt)
            ) {
                do {
                    let (data, head) = try await transport(request)
                    log.update(metrics.attempt) { attempt in
                        attempt.end = .now
                        attempt.statusCode = head.statusCode
                        // Transfers report their own count; a whole-body request's is its body.
                        if attempt.bytesReceived == 0 { attempt.bytesReceived = Int64(data.count) }
                    }
                    return (data, head)
                } catch {
                    log.update(metrics.attempt) { $0.end = .now }
                    throw error
                }
            }
        }
    }

    /// What a session threw, as the provider reports it: an error of the session's own (neither a
    /// `URLError` nor cancellation) becomes ``NetworkError/session(_:)``, so middlewares and callers can
    /// tell it from a middleware's failure.
    static func sessionFailure(_ error: any Error) -> any Error {
        switch error {
        case is CancellationError, is URLError, is NetworkError: error
        default: Task.isCancelled ? CancellationError() : NetworkError.session(error)
        }
    }

    static func map(_ error: any Error) -> any Error {
        switch error {
        case is CancellationError:
            return error
        case let error as URLError where error.code == .cancelled && Task.isCancelled:
            return CancellationError()
        case let error as NetworkError:
            return error
        case let error as URLError:
            return NetworkError.transport(error)
        default:
            return Task.isCancelled ? CancellationError() : NetworkError.middleware(error)
        }
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
