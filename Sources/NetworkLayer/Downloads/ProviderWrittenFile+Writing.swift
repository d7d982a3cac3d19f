import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Writing the file: chunks go to a serial queue of the file's own, never the delegate queue.
extension ProviderWrittenFile {
    /// Hands `data` to the writer; throws the error of an earlier write that failed (a full disk).
    /// Bytes past the end of a `206`'s `Content-Range` are not written: the transfer fails, and a resume
    /// asks for what follows the range.
    func write(_ data: Data) throws {
        guard !data.isEmpty else { return }
        let (startsDrain, overruns) = try state.withLock { state -> (Bool, Bool) in
            if let error = state.writeError { throw error }
            guard state.descriptor >= 0 else { return (false, false) }
            var data = data
            let room = state.answerEnd.map { $0 - state.received } ?? Int64.max
            let overruns = Int64(data.count) > room
            if overruns { data = data.prefix(Int(clamping: max(0, room))) }
            if !data.isEmpty {
                state.queued.append(data)
                state.queuedBytes += Int64(data.count)
            }
            guard !state.isDraining, state.queuedBytes >= Self.batchBytes else { return (false, overruns) }
            state.isDraining = true
            return (true, overruns)
        }
        if startsDrain { writer.async { self.drain() } }
        if overruns { throw NetworkError.transport(URLError(.cannotParseResponse)) }
    }

    /// Writes what is queued until nothing is. After a failed write the rest is dropped, and so is a
    /// chunk that arrives after its file was closed (a transfer ending as it is delivered).
    func drain() {
        while true {
            let next = state.withLock { state -> ([Data], Int32)? in
                guard !state.queued.isEmpty else {
                    state.isDraining = false
                    return nil
                }
                defer { state.queued = [] }
                guard state.descriptor >= 0 else {
                    state.queuedBytes = 0
                    return ([], -1)
                }
                return (state.queued, state.descriptor)
            }
            guard let (chunks, descriptor) = next else { return }
            for chunk in chunks {
                let failure = writeChunk(chunk, descriptor)
                let stop = state.withLock { state -> Bool in
                    // Discarded while this batch was written: the rest is not worth writing.
                    if state.isDiscarded { return true }
                    state.queuedBytes -= Int64(chunk.count)
                    if let failure {
                        state.writeError = state.writeError ?? failure
                        state.queuedBytes = 0
                        state.queued = []
                        // Closed, so no later answer continues after the failed write's partial bytes:
                        // one that opens the file again cuts it back to the bytes counted.
                        FileCalls.closeFile(&state.descriptor)
                        return true
                    }
                    state.written += Int64(chunk.count)
                    return false
                }
                if stop { break }
            }
        }
    }

    /// Waits for every chunk handed over, then throws the error of a write that failed: what the last
    /// chunks of a body, written after the transfer ended, report through.
    func flush() async throws {
        let error = await onWriter {
            self.drain()
            return self.state.withLock { $0.writeError }
        }
        if let error { throw error }
    }

    /// Waits for the writes, closes the file and throws the error of a write or of the close that failed.
    func finishWriting() async throws {
        let error = await onWriter {
            self.drain()
            return self.state.withLock { state -> NetworkError? in
                let closed = FileCalls.closeFile(&state.descriptor)
                return state.writeError ?? closed
            }
        }
        if let error { throw error }
    }

    func onWriter<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            writer.async { continuation.resume(returning: body()) }
        }
    }

    /// Closes the file once the writes before it are done (the partial file stays for a resume); from
    /// now on, an answer opens it again instead of continuing it.
    func close() {
        state.withLock { $0.isClosing = true }
        writer.async {
            self.drain()
            self.state.withLock { state in
                // A deferred failure (a network file system) shows when the file is closed.
                if let failure = FileCalls.closeFile(&state.descriptor) {
                    state.writeError = state.writeError ?? failure
                }
            }
        }
    }

    /// Moves the finished file to `destination`, replacing what is there, in one step (call after
    /// ``finishWriting()``), if the partial file is still the one this download wrote.
    func move(to destination: URL) throws {
        guard let identity = state.withLock({ $0.identity }), FileCalls.isStill(partURL, identity) else {
            throw NetworkError.file(POSIXError(.ENOENT))
        }
        try FileCalls.replace(destination, with: partURL)
    }

    /// Drops the chunks not yet written and removes the partial file (only if it is still the one this
    /// download created); later attempts to open it fail.
    func discard() async {
        // At once, not after the writes queued before: a cancelled download does not wait for its backlog.
        state.withLock { state in
            state.isDiscarded = true
            state.queued = []
            state.queuedBytes = 0
        }
        let identity = await onWriter {
            self.state.withLock { state in
                FileCalls.closeFile(&state.descriptor)
                return state.identity
            }
        }
        if let identity { FileCalls.remove(partURL, ifStill: identity) }
    }
}
