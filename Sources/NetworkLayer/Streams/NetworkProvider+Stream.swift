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
        let rules = endpoint.rules(defaultLimit: configuration.maximumResponseSize)
        let (data, head) = try await exchange(request, context: context) {
            [transport, bufferLimit = configuration.streamBufferLimit] request, record in
            try Task.checkCancellation()
            let channel = ChunkChannel(bufferLimit: bufferLimit)
            let sink = ResponseSink(
                .stream(channel), rules: rules, method: request.httpMethod, record: record)
            let (data, head) = try await transport.send(
                request, upload: nil, into: sink, rules: rules, record: record)
            if !sink.isRefused { kept.keep(StreamBody(channel: channel), for: head) }
            return (data, head)
        }
        try endpoint.checkStatus(of: head, body: data)
        // A middleware that answered by itself (a cache) or replaced the response passes its body.
        return ResponseStream(
            response: head, body: kept.take(for: head) ?? StreamBody(channel: .holding(data)))
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
