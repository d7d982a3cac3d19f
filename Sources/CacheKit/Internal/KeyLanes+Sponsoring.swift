/// Sponsoring: a shared load runs under a token of its own, which holds no lane; a lane holder about to
/// wait for the load lends it its right to pass a waiting exclusive operation (which waits for that very
/// holder). Without it, a load that reads through the cache while a tier waits for it would queue behind
/// `removeAll`, which waits for the tier: none of the three would ever finish.
extension KeyLanes {
    /// A token for a shared load, which holds no lane until a lane holder waits for it.
    func makeSponsoredToken() -> UInt64 {
        state.withLock { state in
            state.nextID &+= 1
            state.sponsors[state.nextID] = []
            return state.nextID
        }
    }

    /// Records that the current task (a lane holder, or a load) is about to wait for the load running
    /// under `token`, so the load passes a waiting exclusive operation whenever the current task may, now
    /// or once a lane holder waits for it in turn; lets through the callers already queued that may now.
    func sponsor(_ token: UInt64) {
        guard let held = Self.holder.flatMap({ $0.lanes == ObjectIdentifier(self) ? $0.lease : nil }) else {
            return
        }
        let resumed = state.withLock { state -> [Continuation] in
            // The link is kept even when `held` has no right to pass yet (a load joined by another load
            // before any lane holder waited for it): the right is followed through the links when asked.
            guard state.sponsors[token] != nil else { return [] }
            state.sponsors[token]?.insert(held)
            return Self.letThroughNested(&state)
        }
        for continuation in resumed { continuation.resume(returning: true) }
    }

    /// Forgets the load of `token`, once it has finished.
    func endSponsorship(_ token: UInt64) {
        state.withLock { _ = $0.sponsors.removeValue(forKey: token) }
    }

    /// Runs `body` as the load of `token`: its calls through the cache pass a waiting exclusive operation
    /// while a lane holder waits for the load.
    func runSponsored<T>(_ token: UInt64, _ body: () async -> T) async -> T {
        await Self.$holder.withValue((ObjectIdentifier(self), token)) { await body() }
    }

    /// Moves the queued callers that may now pass a waiting exclusive operation to their key: each takes
    /// its lane, or waits behind the key's holder.
    private static func letThroughNested(_ state: inout State) -> [Continuation] {
        guard !state.exclusive else { return [] }
        var resumed: [Continuation] = []
        var kept: [Queued] = []
        for queued in state.queue {
            guard case .key(let key, let waiter) = queued, state.mayNest(waiter.held) else {
                kept.append(queued)
                continue
            }
            if state.busy[key] == nil {
                state.busy[key] = []
                resumed.append(waiter.continuation)
            } else {
                state.busy[key]?.append(waiter)
            }
        }
        state.queue = kept
        return resumed
    }
}

extension KeyLanes.State {
    /// Whether the task holding `token` may pass a waiting exclusive operation: it holds a lane, or
    /// it runs a load that such a task waits for (directly, or through loads waiting for loads).
    func mayNest(_ token: UInt64?) -> Bool {
        guard let token else { return false }
        var seen: Set<UInt64> = []
        var pending = [token]
        while let next = pending.popLast() {
            if leases.contains(next) { return true }
            guard seen.insert(next).inserted, let waiting = sponsors[next] else { continue }
            pending.append(contentsOf: waiting)
        }
        return false
    }
}
