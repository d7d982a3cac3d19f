import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkProvider {
    /// Sends `endpoint` and returns its body as a stream of chunks, read as they arrive.
    ///
    /// The request goes through the middlewares like any other; they see the response head (the body
    /// they see is empty, since it has not arrived yet) and may retry or refuse it. The head's status is
    /// checked against the endpoint's acceptable codes before this returns; a refused response's body
    /// (its first MiB) is in the ``NetworkError/unacceptableStatus(_:)`` error. A middleware that returns a
    /// response object other than the one `next` gave it (a cache, a rewritten response) supplies the
    /// body: the data it returns is the stream's one chunk, and the transfer it replaced is stopped. The endpoint's
    /// ``Endpoint/timeout`` is an idle timeout for the whole transfer, and its ``Endpoint/deadline`` bounds
    /// each attempt, body included. Its `validate` hook and decoding are not used.
    ///
    /// - Note: Every request of a provider on a `URLSession` runs on a `URLSession` of NetworkLayer's own,
    ///   made from your session's configuration. Your session's delegate answers the authentication and
    ///   TLS challenges of streams as of every other request (each is forwarded to it, on its delegate
    ///   queue); its other delegate methods are not called.
    ///
    /// With a `URLSession` (the default) bytes are delivered as URLSession receives them; a session that
    /// returns bodies whole (``StubSession``, ``RecordReplaySession``) yields its body as one chunk.
    /// - Parameter endpoint: The endpoint to send.
    /// - Returns: The stream, with the response head.
    /// - Throws: ``NetworkError``, or `CancellationError` when the calling task is cancelled.
    public func stream<Response>(_ endpoint: Endpoint<Response>) async throws -> ResponseStream {
        let request = try endpoint.makeRequest()
        let context = endpoint.context
        return try await observing(request, context: context) {
            try await stream(endpoint, request, context: context)
        }
    }

    private func stream<Response>(
        _ endpoint: Endpoint<Response>, _ request: URLRequest, context: RequestContext
    ) async throws -> ResponseStream {
        let kept = KeptStream()
        let transport: NetworkMiddleware.Next = { [self] request in
            try Task.checkCancellation()
            guard let urlSession = session as? URLSession else {
                let (data, head) = try await dataTransport(
                    timeout: endpoint.attemptTimeout, rules: wholeBodyRules(of: endpoint))(request)
                kept.keep(StreamBody(channel: .holding(data)), for: head)
                return (data, head)
            }
            let transfers = try dataTransfers(for: urlSession, endpoint: endpoint.name)
            let channel = ChunkChannel(bufferLimit: configuration.streamBufferLimit)
            let handler = TransferHandler(
                sink: channel, idleTimeout: endpoint.timeout, deadline: endpoint.deadline,
                deadlines: configuration.deadlines, progress: nil)
            channel.onStop { [weak handler] in handler?.fail(CancellationError()) }
            transfers.start(request, handler: handler)
            let head = try await handler.head()
            CurrentAttempt.responseStarted()
            guard endpoint.acceptableStatusCodes.contains(head.statusCode) else {
                return (try await channel.collect(limit: Self.errorBodyLimit), head)
            }
            kept.keep(StreamBody(channel: channel), for: head)
            return (Data(), head)
        }
        let (data, head) = try await exchange(request, context: context, transport: transport)
        try endpoint.checkStatus(of: head, body: data)
        // A middleware that answered by itself (a cache) or replaced the response passes its body.
        return ResponseStream(
            response: head, body: kept.take(for: head) ?? StreamBody(channel: .holding(data)))
    }

    /// How much of a refused streamed or downloaded response's body is kept for the error.
    static let errorBodyLimit = 1 << 20

    /// The largest whole body `endpoint` accepts: its own limit, or the provider's.
    func wholeBodyLimit<Response>(of endpoint: Endpoint<Response>) -> Int {
        max(0, endpoint.maximumResponseSize ?? configuration.maximumResponseSize)
    }

    /// What a whole body of `endpoint` may be.
    func wholeBodyRules<Response>(of endpoint: Endpoint<Response>) -> WholeBodyRules {
        WholeBodyRules(
            limit: wholeBodyLimit(of: endpoint), accepts: endpoint.acceptableStatusCodes,
            endpoint: endpoint.name)
    }
}

extension Endpoint {
    /// Throws ``NetworkError/unacceptableStatus(_:)``, carrying `body`, unless this endpoint accepts the
    /// status of `http`.
    func checkStatus(of http: HTTPURLResponse, body: Data) throws(NetworkError) {
        guard acceptableStatusCodes.contains(http.statusCode) else {
            throw .unacceptableStatus(
                .init(statusCode: http.statusCode, headers: http.headerFields, body: body, url: http.url))
        }
    }

    /// What middlewares are told about this endpoint.
    var context: RequestContext {
        RequestContext(
            endpointName: name, isIdempotent: isIdempotent, acceptableStatusCodes: acceptableStatusCodes,
            metrics: RequestMetricsLog())
    }
}

/// The body of the latest attempt of a stream, kept while the middlewares decide; an attempt that is
/// replaced (retried) is stopped.
final class KeptStream: Sendable {
    private struct Kept: @unchecked Sendable {
        // @unchecked Sendable: the head is only compared by identity, never mutated; Foundation does
        // not annotate HTTPURLResponse `Sendable` on every platform.
        let body: StreamBody
        let head: HTTPURLResponse
    }

    private let kept = Locked<Kept?>(nil)

    func keep(_ body: StreamBody, for head: HTTPURLResponse) {
        let replaced = kept.withLock { kept in
            defer { kept = Kept(body: body, head: head) }
            return kept
        }
        // Released after unlocking: the last reference to a body stops its transfer.
        withExtendedLifetime(replaced) {}
    }

    /// The body kept for `head`, if the chain returned that very response.
    func take(for head: HTTPURLResponse) -> StreamBody? {
        let taken = kept.withLock { kept in
            defer { kept = nil }
            return kept
        }
        return taken?.head === head ? taken?.body : nil
    }
}
