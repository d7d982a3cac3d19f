import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One attempt's transport call: the request the middlewares made, and where the call writes what it
/// measured.
typealias TransportCall = @Sendable (URLRequest, AttemptRecord) async throws -> (Data, HTTPURLResponse)

/// The pipeline every public call runs: the middlewares around a transport call, each attempt recorded
/// and reported, what is thrown mapped to ``NetworkError``; then, for a whole body, the status check, the
/// `validate` hook and decoding.
extension NetworkProvider {
    /// Runs a whole request, reporting `finished` or `failed` to ``Configuration/onEvent``.
    func observing<Value>(
        _ request: URLRequest, context: RequestContext, _ body: () async throws -> Value
    ) async throws -> Value {
        // The values the attempts carried stay hidden until the last event about them is reported.
        defer { context.credentialsInUse.end() }
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
        _ request: URLRequest, context: RequestContext, transport: @escaping TransportCall
    ) async throws -> (Data, HTTPURLResponse) {
        // Values the endpoint itself carries in secret fields are hidden from the first log line on.
        context.credentialsInUse.hold(request)
        var innermost = instrumented(transport, context: context)
        if let cache = context.cacheExchange {
            let network = innermost
            // A background revalidation's own attempt, recorded apart: the request has its answer.
            let refresh: NetworkMiddleware.Next = { request in
                let log = RequestMetricsLog()
                let attempt = log.begin(bytesSent: Int64(request.httpBody?.count ?? 0))
                return try await transport(request, AttemptRecord(log: log, number: attempt.attempt))
            }
            innermost = { request in
                try await cache.cache.answer(request, exchange: cache, next: network, refresh: refresh)
            }
        }
        let chain = middlewares.reversed().reduce(innermost) {
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
        _ transport: @escaping TransportCall, context: RequestContext
    ) -> NetworkMiddleware.Next {
        { [configuration, session = self.transport] request in
            // What the attempt carries in secret fields, as the session sends it (its configuration's
            // headers and stored cookies included), is hidden wherever it is written later.
            context.credentialsInUse.hold(session.asSent(request))
            let log = context.metrics
            let metrics = log.begin(bytesSent: Int64(request.httpBody?.count ?? 0))
            if let onEvent = configuration.onEvent {
                let summary = Self.summary(of: request, context: context, metrics: metrics)
                onEvent(metrics.isRetry ? .retried(summary) : .started(summary))
            }
            do {
                let (data, head) = try await transport(
                    request, AttemptRecord(log: log, number: metrics.attempt))
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
