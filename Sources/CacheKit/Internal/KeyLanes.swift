/// Runs operations one key at a time, in the order they arrive, and different keys in parallel; an
/// exclusive operation (``Cache/removeAll()``) waits for every key and holds them all.
///
/// What makes a ``Cache``'s last write win across tiers: a read that moves a value into an earlier tier
/// holds its key's lane, so a store or remove of that key cannot slip in between its read and its move.
final class KeyLanes: Sendable {
    private struct State: Sendable {
        /// Keys in use, each with the callers queued behind it.
        var busy: [String: [CheckedContinuation<Void, Never>]] = [:]
        var exclusive = false
        var exclusiveWaiters: [CheckedContinuation<Void, Never>] = []
        /// Callers that arrived while an exclusive operation ran or waited.
        var blocked: [(key: String, continuation: CheckedContinuation<Void, Never>)] = []

        var isOpen: Bool { !exclusive && exclusiveWaiters.isEmpty }
    }

    private let state = Locked(State())

    /// Runs `body` holding `key`'s lane.
    func run<T, Failure: Error>(_ key: String, _ body: () async throws(Failure) -> T) async throws(Failure)
        -> T
    {
        await acquire(key)
        defer { release(key) }
        return try await body()
    }

    /// Runs `body` holding every lane.
    func runExclusive<T, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        await acquireAll()
        defer { releaseAll() }
        return try await body()
    }

    /// How many exclusive operations are waiting for every lane (for tests).
    var queuedExclusive: Int {
        state.withLock { $0.exclusiveWaiters.count }
    }

    /// How many callers are queued behind `key`'s lane (for tests).
    func queued(_ key: String) -> Int {
        state.withLock { state in
            (state.busy[key]?.count ?? 0) + state.blocked.filter { $0.key == key }.count
        }
    }

    private func acquire(_ key: String) async {
        let granted = state.withLock { state -> Bool in
            guard state.isOpen, state.busy[key] == nil else { return false }
            state.busy[key] = []
            return true
        }
        if granted { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if !state.isOpen {
                    state.blocked.append((key, continuation))
                } else if state.busy[key] != nil {
                    state.busy[key]?.append(continuation)
                } else {
                    state.busy[key] = []
                    return true
                }
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func release(_ key: String) {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if var waiting = state.busy[key], !waiting.isEmpty {
                let next = waiting.removeFirst()
                state.busy[key] = waiting
                return next
            }
            state.busy[key] = nil
            if state.busy.isEmpty, !state.exclusive, !state.exclusiveWaiters.isEmpty {
                state.exclusive = true
                return state.exclusiveWaiters.removeFirst()
            }
            return nil
        }
        next?.resume()
    }

    private func acquireAll() async {
        let granted = state.withLock { state -> Bool in
            guard state.isOpen, state.busy.isEmpty else { return false }
            state.exclusive = true
            return true
        }
        if granted { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.isOpen, state.busy.isEmpty {
                    state.exclusive = true
                    return true
                }
                state.exclusiveWaiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func releaseAll() {
        let next = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.exclusive = false
            if !state.exclusiveWaiters.isEmpty {
                state.exclusive = true
                return [state.exclusiveWaiters.removeFirst()]
            }
            var resumed: [CheckedContinuation<Void, Never>] = []
            for (key, continuation) in state.blocked {
                if state.busy[key] == nil {
                    state.busy[key] = []
                    resumed.append(continuation)
                } else {
                    state.busy[key]?.append(continuation)
                }
            }
            state.blocked = []
            return resumed
        }
        for continuation in next { continuation.resume() }
    }
}
