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
    /// has the task's rights; lets through, in every instance, the callers already queued that may now
    /// pass.
    func sponsor(_ token: LaneID) {
        let rights = Self.rights
        guard !rights.isEmpty, LaneRegistry.link(load: token, to: rights) else { return }
        LaneRegistry.letEveryInstanceThrough()
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
        let (resumed, relinked) = state.withLock { state -> ([Continuation], Bool) in
            guard !state.exclusive, !state.queue.isEmpty else { return ([], false) }
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
                    state.wait(waiter, behind: key)
                }
            }
            state.queue = kept
            return (resumed, state.takeRelinked())
        }
        for continuation in resumed { continuation.resume(returning: true) }
        if relinked { LaneRegistry.letEveryInstanceThrough() }
    }
}

extension KeyLanes.State {
    /// Whether a task with `rights` may pass this instance's waiting exclusive operation, which waits
    /// for the holders of its lanes: one of the rights is a lease held here, or reaches one through the
    /// links of whoever waits for whom (a load to the tasks waiting for it, a lane's holder to the tasks
    /// waiting behind it, in any instance).
    func mayNest(_ rights: LaneRights) -> Bool {
        guard !rights.isEmpty, !leases.isEmpty else { return false }
        if rights.contains(where: leases.contains) { return true }
        return LaneRegistry.reaches(from: rights, anyOf: leases)
    }
}
