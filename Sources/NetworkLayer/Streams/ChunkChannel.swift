import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Carries a streamed body from its transfer (through a ``ResponseSink``) to one consumer: chunks are
/// buffered in arrival order until read, at most `bufferLimit` bytes; the end (or the failure) is
/// delivered after the last chunk. A consumer cancelled while waiting stops the transfer; one that falls
/// further behind than the buffer holds gets ``ResponseStreamError/readerFellBehind(limit:)`` after the
/// chunks held.
final class ChunkChannel: Sendable {
    private struct State: Sendable {
        var chunks: [Data] = []
        var nextChunk = 0
        /// The bytes of the chunks not yet read.
        var buffered = 0
        var end: Result<Void, any Error>?
        var waiter: CheckedContinuation<Data?, any Error>?
        var stopTransfer: (@Sendable () -> Void)?
    }

    private let state = Locked(State())
    private let bufferLimit: Int

    /// - Parameter bufferLimit: The most bytes held for the reader (at least 64 KiB); unbounded by
    ///   default, for a body that is already whole or bounded by its caller.
    init(bufferLimit: Int = .max) {
        self.bufferLimit = max(bufferLimit, 64 << 10)
    }

    /// A channel that already holds the whole body (one a middleware answered with).
    static func holding(_ body: Data) -> ChunkChannel {
        let channel = ChunkChannel()
        channel.hold(body)
        channel.close(nil)
        return channel
    }

    /// Holds `body`, already whole in memory, for the reader, whatever the buffer's limit.
    func hold(_ body: Data) {
        guard !body.isEmpty else { return }
        let waiter = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
            guard state.end == nil else { return nil }
            guard let waiter = state.waiter else {
                state.buffered += body.count
                state.chunks.append(body)
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: body)
    }

    /// How to stop the transfer feeding this channel when its consumer goes away.
    func onStop(_ stop: @escaping @Sendable () -> Void) {
        state.withLock { $0.stopTransfer = stop }
    }

    func write(_ data: Data) throws {
        let (waiter, fits) = state.withLock { state -> (CheckedContinuation<Data?, any Error>?, Bool) in
            guard state.end == nil else { return (nil, true) }
            guard let waiter = state.waiter else {
                let (total, overflow) = state.buffered.addingReportingOverflow(data.count)
                guard !overflow, total <= bufferLimit else {
                    // What fits is held: the reader gets the buffer's worth before the error.
                    let room = bufferLimit - state.buffered
                    if room > 0 {
                        state.chunks.append(data.prefix(room))
                        state.buffered += room
                    }
                    return (nil, false)
                }
                state.buffered = total
                state.chunks.append(data)
                return (nil, true)
            }
            state.waiter = nil
            return (waiter, true)
        }
        // The transfer handler fails the transfer with this error, which reaches the reader after the
        // chunks held.
        guard fits else { throw ResponseStreamError.readerFellBehind(limit: bufferLimit) }
        waiter?.resume(returning: data)
    }

    func close(_ error: (any Error)?) {
        let waiter = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
            guard state.end == nil else { return nil }
            state.end = error.map { .failure($0) } ?? .success(())
            state.stopTransfer = nil
            defer { state.waiter = nil }
            return state.nextChunk == state.chunks.count ? state.waiter : nil
        }
        if let error { waiter?.resume(throwing: error) } else { waiter?.resume(returning: nil) }
    }

    /// The next chunk, or `nil` after the last one.
    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<Data?, any Error>? in
                    if state.nextChunk < state.chunks.count {
                        let chunk = state.chunks[state.nextChunk]
                        state.nextChunk += 1
                        state.buffered -= chunk.count
                        if state.nextChunk == state.chunks.count {
                            state.chunks.removeAll(keepingCapacity: true)
                            state.nextChunk = 0
                        }
                        return .success(chunk)
                    }
                    switch state.end {
                    case .some(.success): return .success(nil)
                    case .some(.failure(let error)): return .failure(error)
                    case nil:
                        // One reader at a time: a second concurrent one is refused, not left hanging.
                        guard state.waiter == nil else {
                            return .failure(ResponseStreamError.concurrentReads)
                        }
                        state.waiter = continuation
                        return nil
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            stop(with: CancellationError())
        }
    }

    /// Ends the channel for its consumer and stops the transfer (the consumer left or was cancelled).
    func stop(with error: any Error) {
        let stopTransfer = state.withLock { $0.stopTransfer }
        close(error)
        stopTransfer?()
    }
}
