/// Sponsoring: a shared load runs under a token of its own, which holds no lane; a task about to wait for
/// the load links the token to its own rights, so the load passes a waiting exclusive operation wherever
/// the waiting task may (an exclusive operation that waits for that very task). Without it, a load that
/// reads through a cache while a tier of that cache waits for it would queue behind `removeAll`, which
/// waits for the tier: none of the three would ever finish. Links cross caches: a load of one cache
/// that a tier of another waits for passes the other's `removeAll`.
extension KeyLanes {
    /// A token for a shared load, which holds no lane until a task with rights waits for it.
    func makeSponsoredToken() -> LaneID {
        let token = state.withLock { state in
            state.nextID &+= 1
            return LaneID(owner: state.owner, number: state.nextID)
        }
        LaneRegistry.open(token)
        return token
    }

    /// Records that the current task is about to wait for the load running under `token`, so the load
    /// has the task's rights (now, or once a holder waits for the task in turn); lets through, in every
    /// instance, the callers already queued that may now pass.
    func sponsor(_ token: LaneID) {
        let rights = Self.rights
        guard !rights.isEmpty, LaneRegistry.link(token, to: rights) else { return }
        for lanes in LaneRegistry.all() { lanes.letThroughNested() }
    }

    /// Forgets the load of `token`, once it has finished.
    func endSponsorship(_ token: LaneID) {
        LaneRegistry.close(token)
    }

    /// Runs `body` as the load of `token`: its calls through any cache pass a waiting exclusive operation
    /// while a task with the right to waits for the load.
    func runSponsored<T>(_ token: LaneID, _ body: () async -> T) async -> T {
        await Self.$rights.withValue(Self.rights.adding(token)) { await body() }
    }

    /// Moves the queued callers that may now pass a waiting exclusive operation to their key: each takes
    /// its lane, or waits behind the key's holder.
    func letThroughNested() {
        let resumed = state.withLock { state -> [Continuation] in
            guard !state.exclusive, !state.queue.isEmpty else { return [] }
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
        for continuation in resumed { continuation.resume(returning: true) }
    }
}

extension KeyLanes.State {
    /// Whether a task with `rights` may pass a waiting exclusive operation: one of its rights is a lease
    /// held now in any instance, or the token of a load that such a task waits for (directly, or through
    /// loads waiting for loads).
    func mayNest(_ rights: LaneRights) -> Bool {
        !rights.isEmpty && LaneRegistry.reachesLiveLease(from: rights)
    }
}
