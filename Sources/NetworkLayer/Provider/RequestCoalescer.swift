import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Shares one transport call between identical requests in flight at the same time.
///
/// Requests are identical when their method, URL and headers are. Each caller waits on its own
/// continuation: a cancelled caller leaves at once with `CancellationError` while the call goes on for
/// the others, and the call itself is cancelled when its last caller leaves. A caller already cancelled
/// joins nothing and sends nothing.
final class RequestCoalescer: Sendable {
    private let inFlight = Locked<[String: SharedCall]>([:])
    private let waiters = Locked(0)

    /// How many callers are waiting for a shared call (for tests).
    var waitingCount: Int { waiters.withLock { $0 } }

    /// The response to `request`: `send`'s, shared with identical requests in flight.
    /// - Parameters:
    ///   - variant: Shares the call only with requests of the same variant too.
    ///   - record: Told when the caller joins a call already running.
    func response(
        for request: URLRequest, sharingOnly variant: String = "", record: AttemptRecord? = nil,
        send: @escaping @Sendable () async throws -> (Data, HTTPURLResponse)
    ) async throws -> (Data, HTTPURLResponse) {
        try Task.checkCancellation()
        let key = variant + "\n" + Self.key(for: request)
        let (call, ticket, isNew) = inFlight.withLock { inFlight in
            if let running = inFlight[key], let ticket = running.join() {
                return (running, ticket, false)
            }
            let call = SharedCall()
            inFlight[key] = call
            return (call, call.join() ?? 0, true)
        }
        if isNew {
            call.start { [self] in
                defer { forget(call, key: key) }
                return try await send()
            }
        } else {
            record?.coalesced()
        }
        waiters.withLock { $0 += 1 }
        defer { waiters.withLock { $0 -= 1 } }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { call.wait(ticket, with: $0) }
        } onCancel: {
            if call.leave(ticket) { forget(call, key: key) }
        }
    }

    /// Takes a finished or abandoned call out of the table, unless a newer call already replaced it. The
    /// call leaves the table under the lock and is released after unlocking.
    private func forget(_ call: SharedCall, key: String) {
        let removed = inFlight.withLock { table -> SharedCall? in
            guard table[key] === call else { return nil }
            return table.removeValue(forKey: key)
        }
        withExtendedLifetime(removed) {}
    }

    private static func key(for request: URLRequest) -> String {
        let headers = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }
            .map { "\($0.key.lowercased()):\($0.value)" }.joined(separator: "\n")
        return "\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "")\n\(headers)"
    }
}

/// One transport call and the callers waiting for it.
private final class SharedCall: Sendable {
    typealias Outcome = Result<(Data, HTTPURLResponse), any Error>

    private struct State: Sendable {
        var nextTicket = 0
        var members: Set<Int> = []
        var continuations: [Int: CheckedContinuation<(Data, HTTPURLResponse), any Error>] = [:]
        var outcome: Outcome?
        var isAbandoned = false
        var task: Task<Void, Never>?
    }

    private let state = Locked(State())

    /// Adds a caller; `nil` when every caller has left and the call is being cancelled.
    func join() -> Int? {
        state.withLock { state in
            guard !state.isAbandoned else { return nil }
            defer { state.nextTicket += 1 }
            state.members.insert(state.nextTicket)
            return state.nextTicket
        }
    }

    /// Runs `operation` in a task of its own and answers every caller still waiting with its outcome.
    func start(_ operation: @escaping @Sendable () async throws -> (Data, HTTPURLResponse)) {
        let task = Task {
            let outcome: Outcome
            do {
                outcome = .success(try await operation())
            } catch {
                outcome = .failure(error)
            }
            self.finish(with: outcome)
        }
        let cancelNow = state.withLock { state -> Bool in
            state.task = task
            return state.isAbandoned
        }
        if cancelNow { task.cancel() }
    }

    /// Waits for the outcome, unless the caller has left or the outcome is known.
    func wait(_ ticket: Int, with continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>) {
        let answer = state.withLock { state -> Outcome? in
            if let outcome = state.outcome { return outcome }
            guard state.members.contains(ticket) else { return .failure(CancellationError()) }
            state.continuations[ticket] = continuation
            return nil
        }
        if let answer { continuation.resume(with: answer) }
    }

    /// Answers a cancelled caller with `CancellationError` at once; cancels the call when it was the last.
    /// Returns whether the call was abandoned, so its owner can forget it.
    func leave(_ ticket: Int) -> Bool {
        let (continuation, task) = state.withLock {
            state -> (CheckedContinuation<(Data, HTTPURLResponse), any Error>?, Task<Void, Never>?) in
            guard state.members.remove(ticket) != nil else { return (nil, nil) }
            let continuation = state.continuations.removeValue(forKey: ticket)
            guard state.members.isEmpty, state.outcome == nil else { return (continuation, nil) }
            state.isAbandoned = true
            return (continuation, state.task)
        }
        continuation?.resume(throwing: CancellationError())
        task?.cancel()
        return state.withLock { $0.isAbandoned }
    }

    private func finish(with outcome: Outcome) {
        let waiting = state.withLock { state in
            state.outcome = outcome
            state.members.removeAll()
            defer {
                state.continuations.removeAll()
                state.task = nil
            }
            return Array(state.continuations.values)
        }
        for continuation in waiting { continuation.resume(with: outcome) }
    }
}
