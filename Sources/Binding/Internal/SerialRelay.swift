/// Runs an operator's propagation steps one at a time, whichever threads ask, and never under a lock.
///
/// A combining operator (``Observable/combineLatest(_:)``, ``Observable/bind(to:)``) reacts to two
/// sources that two threads may set at once. Each reaction reads the sources' *current* values and
/// publishes; run side by side, a reaction that read early could publish last and leave a stale result.
/// Here a thread that finds a step running queues its event and returns; the running thread performs it
/// after its own, so the last step performed reads the latest values of both sources. Consecutive equal
/// events are merged (rereading the same sources twice in a row gives the same answer).
final class SerialRelay<Event: Sendable & Equatable>: Sendable {
    private struct State: Sendable {
        var queue: [Event] = []
        var isDraining = false
    }

    private let perform: @Sendable (Event) -> Void
    private let state = Locked(State())

    init(perform: @escaping @Sendable (Event) -> Void) {
        self.perform = perform
    }

    /// Performs `event` now, or after the step running on another thread (or, when called from inside
    /// a step, after that step).
    func submit(_ event: Event) {
        let drains = state.withLock { state -> Bool in
            if state.queue.last != event { state.queue.append(event) }
            if state.isDraining { return false }
            state.isDraining = true
            return true
        }
        guard drains else { return }
        while true {
            let next = state.withLock { state -> Event? in
                guard !state.queue.isEmpty else {
                    state.isDraining = false
                    return nil
                }
                return state.queue.removeFirst()
            }
            guard let next else { return }
            perform(next)
        }
    }
}
