/// One shared call of a loader, and the callers waiting for it.
///
/// Each caller waits on a continuation of its own, so a cancelled caller leaves at once with
/// `CancellationError`; when the last one leaves before the load finishes, the load's task is cancelled
/// and its value, if it still produces one, is not stored.
final class LoadFlight<Value: Sendable>: Sendable {
    private struct State: Sendable {
        var waiters: [UInt64: CheckedContinuation<Value, any Error>] = [:]
        /// Tickets handed out whose callers have not registered (or left) yet: they still want the load.
        var outstanding = 0
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
    /// The token the load runs under in the cache's ``KeyLanes``, which callers holding a lane sponsor.
    let laneToken: LaneID

    init(laneToken: LaneID) {
        self.laneToken = laneToken
    }

    /// Starts `body` in a task of its own, unless every caller has already left. Called once.
    func start(_ body: @escaping @Sendable () async -> Void) {
        let task = Task { await body() }
        let abandoned = state.withLock { state -> Bool in
            state.task = task
            return state.isAbandoned
        }
        if abandoned { task.cancel() }
    }

    var isStale: Bool {
        state.withLock { $0.isStale }
    }

    /// Marks the load's value as not to be stored.
    func markStale() {
        state.withLock { $0.isStale = true }
    }

    /// A ticket for one waiting caller, taken while the flight is found or made (under the cache's lock
    /// of running loads), so the flight cannot be abandoned in between; ``wait(_:onLastLeft:)`` uses it.
    func makeWaiter() -> UInt64 {
        state.withLock { state in
            state.nextWaiter &+= 1
            state.outstanding += 1
            return state.nextWaiter
        }
    }

    /// What a caller leaving does to the load: `.none` while others still want it; otherwise the task to
    /// cancel after unlocking (itself `nil` when not started yet).
    private typealias Abandoning = Task<Void, Never>??

    /// Waits for the load's result; a cancelled caller leaves at once. `onLastLeft` runs when this caller
    /// was the last one waiting and left before the result.
    func wait(_ waiter: UInt64, onLastLeft: @escaping @Sendable () -> Void) async throws -> Value {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Value, any Error>) in
                let (ready, abandoning) = state.withLock { state -> (Result<Value, any Error>?, Abandoning) in
                    state.outstanding -= 1
                    if let result = state.result { return (result, nil) }
                    if state.isAbandoned { return (.failure(Abandoned()), nil) }
                    if state.cancelledEarly.remove(waiter) != nil {
                        return (.failure(CancellationError()), abandonIfLast(&state))
                    }
                    state.waiters[waiter] = continuation
                    return (nil, nil)
                }
                if let ready { continuation.resume(with: ready) }
                if let abandoning { leave(abandoning, onLastLeft) }
            }
        } onCancel: {
            let (left, abandoning) = state.withLock {
                state -> (CheckedContinuation<Value, any Error>?, Abandoning) in
                guard state.result == nil else { return (nil, nil) }
                guard let continuation = state.waiters.removeValue(forKey: waiter) else {
                    // Cancelled before the continuation was registered: the body above sees this.
                    state.cancelledEarly.insert(waiter)
                    return (nil, nil)
                }
                return (continuation, abandonIfLast(&state))
            }
            left?.resume(throwing: CancellationError())
            if let abandoning { leave(abandoning, onLastLeft) }
        }
    }

    /// Cancels the abandoned load after unlocking: cancellation runs the loader's handlers (user code).
    private func leave(_ task: Task<Void, Never>?, _ onLastLeft: @Sendable () -> Void) {
        task?.cancel()
        onLastLeft()
    }

    /// When no caller waits or holds a ticket any more, marks the load abandoned and its value not to be
    /// stored.
    private func abandonIfLast(_ state: inout State) -> Abandoning {
        guard state.waiters.isEmpty, state.outstanding == 0 else { return nil }
        state.isStale = true
        state.isAbandoned = true
        return .some(state.task)
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
