/// One shared call of a loader, and the callers waiting for it.
///
/// Each caller waits on a continuation of its own, so a cancelled caller leaves at once with
/// `CancellationError`; when the last one leaves before the load finishes, the load's task is cancelled
/// and its value, if it still produces one, is not stored.
final class LoadFlight<Value: Sendable>: Sendable {
    private struct State: Sendable {
        var waiters: [UInt64: CheckedContinuation<Value, any Error>] = [:]
        var cancelledEarly: Set<UInt64> = []
        var nextWaiter: UInt64 = 0
        var result: Result<Value, any Error>?
        var task: Task<Void, Never>?
        /// Set by a store, remove or removeAll of the key while loading, or when every caller left: the
        /// loaded value is handed to its callers but not stored.
        var isStale = false
        /// Every caller left before the result; the task was cancelled. A caller arriving now must start
        /// a load of its own.
        var isAbandoned = false
    }

    /// Thrown to a caller that joined a load every other caller had just left; it starts a new one.
    struct Abandoned: Error {}

    private let state = Locked(State())

    /// Starts `body` in a task of its own. Called once, right after init.
    func start(_ body: @escaping @Sendable () async -> Void) {
        let task = Task { await body() }
        state.withLock { $0.task = task }
    }

    var isStale: Bool {
        state.withLock { $0.isStale }
    }

    /// Marks the load's value as not to be stored.
    func markStale() {
        state.withLock { $0.isStale = true }
    }

    /// A ticket for one waiting caller; ``wait(_:onLastLeft:)`` uses it.
    func makeWaiter() -> UInt64 {
        state.withLock { state in
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
    }

    /// Waits for the load's result; a cancelled caller leaves at once. `onLastLeft` runs when this caller
    /// was the last one waiting and left before the result.
    func wait(_ waiter: UInt64, onLastLeft: @escaping @Sendable () -> Void) async throws -> Value {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Value, any Error>) in
                let (ready, wasLast) = state.withLock { state -> (Result<Value, any Error>?, Bool) in
                    if let result = state.result { return (result, false) }
                    if state.isAbandoned { return (.failure(Abandoned()), false) }
                    if state.cancelledEarly.remove(waiter) != nil {
                        return (.failure(CancellationError()), abandonIfLast(&state))
                    }
                    state.waiters[waiter] = continuation
                    return (nil, false)
                }
                if let ready { continuation.resume(with: ready) }
                if wasLast { onLastLeft() }
            }
        } onCancel: {
            let (left, wasLast) = state.withLock { state -> (CheckedContinuation<Value, any Error>?, Bool) in
                guard state.result == nil else { return (nil, false) }
                guard let continuation = state.waiters.removeValue(forKey: waiter) else {
                    // Cancelled before the continuation was registered: the body above sees this.
                    state.cancelledEarly.insert(waiter)
                    return (nil, false)
                }
                return (continuation, abandonIfLast(&state))
            }
            left?.resume(throwing: CancellationError())
            if wasLast { onLastLeft() }
        }
    }

    /// When no caller waits any more, cancels the load and marks its value not to be stored.
    private func abandonIfLast(_ state: inout State) -> Bool {
        guard state.waiters.isEmpty else { return false }
        state.isStale = true
        state.isAbandoned = true
        state.task?.cancel()
        return true
    }

    /// Hands `result` to every caller still waiting.
    func finish(_ result: Result<Value, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, any Error>] in
            state.result = result
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(with: result) }
    }

    /// How many callers are waiting (for tests).
    var waiterCount: Int {
        state.withLock { $0.waiters.count }
    }
}
