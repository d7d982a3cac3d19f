/// A lane's lease, or a load's token: unique across every ``KeyLanes`` instance of the process.
struct LaneID: Sendable, Hashable {
    /// The instance's number.
    let owner: UInt64
    /// The lease's or token's number within it.
    let number: UInt64
}

/// What a task holds and runs, across every cache: the leases of the lanes it holds and the tokens of
/// the loads it runs. A task-local (``KeyLanes/rights``) that nested calls add to and never replace, so a
/// tier of one cache that calls a second cache, whose tier or loader calls the first again, still
/// carries its right there. Nesting is shallow: the first right is kept inline, so the common case (one
/// lane) allocates nothing.
struct LaneRights: Sendable {
    private var first: LaneID?
    private var rest: [LaneID] = []

    /// No rights: a task that holds no lane and runs no load.
    init() {}

    var isEmpty: Bool { first == nil }

    /// These rights and `id`.
    func adding(_ id: LaneID) -> LaneRights {
        var rights = self
        if rights.first == nil { rights.first = id } else { rights.rest.append(id) }
        return rights
    }

    /// Whether one of the rights satisfies `predicate`.
    func contains(where predicate: (LaneID) -> Bool) -> Bool {
        guard let first else { return false }
        return predicate(first) || rest.contains(where: predicate)
    }

    /// Every right.
    var all: [LaneID] { (first.map { [$0] } ?? []) + rest }
}

/// Every ``KeyLanes`` instance of the process, and the links from each running load's token to the rights
/// of the tasks waiting for it. One lock for all of it, taken after an instance's own (never before):
/// an instance asks it whether a waiter's rights reach one of its leases while holding its state.
enum LaneRegistry {
    private struct Entry: Sendable {
        weak var lanes: KeyLanes?
    }

    private struct State: Sendable {
        var nextOwner: UInt64 = 0
        var instances: [UInt64: Entry] = [:]
        /// Each running load's token, with the rights of the tasks waiting for it.
        var links: [LaneID: Set<LaneID>] = [:]
        /// The leases held now, in every instance.
        var live: Set<LaneID> = []
    }

    private static let state = Locked(State())

    /// A number for a new instance.
    static func register() -> UInt64 {
        state.withLock { state in
            state.nextOwner &+= 1
            return state.nextOwner
        }
    }

    /// Lists `lanes`, so a sponsorship lets its queued callers through.
    static func add(_ lanes: KeyLanes) {
        let owner = lanes.state.withLock { $0.owner }
        state.withLock { $0.instances[owner] = Entry(lanes: lanes) }
    }

    /// Forgets the instance `owner`, at its end.
    static func remove(_ owner: UInt64) {
        _ = state.withLock { $0.instances.removeValue(forKey: owner) }
    }

    /// Every instance still alive.
    static func all() -> [KeyLanes] {
        state.withLock { $0.instances.values.compactMap(\.lanes) }
    }

    /// Opens the load of `token`, which no task waits for yet.
    static func open(_ token: LaneID) {
        state.withLock { $0.links[token] = [] }
    }

    /// Closes the load of `token`, which has finished.
    static func close(_ token: LaneID) {
        _ = state.withLock { $0.links.removeValue(forKey: token) }
    }

    /// Links the load of `token` to `rights` (a task about to wait for it); `false` when the load has
    /// finished.
    static func link(_ token: LaneID, to rights: LaneRights) -> Bool {
        state.withLock { state in
            guard state.links[token] != nil else { return false }
            state.links[token]?.formUnion(rights.all)
            return true
        }
    }

    /// Marks `lease` held (a lane just taken, or an exclusive operation's body begun).
    static func hold(_ lease: LaneID) {
        _ = state.withLock { $0.live.insert(lease) }
    }

    /// Marks `lease` released.
    static func drop(_ lease: LaneID) {
        _ = state.withLock { $0.live.remove(lease) }
    }

    /// Whether `rights`, following the links of the loads among them to the rights of the tasks waiting
    /// for those loads, reach a lease held now, in any instance.
    static func reachesLiveLease(from rights: LaneRights) -> Bool {
        state.withLock { state in
            var seen: Set<LaneID> = []
            var pending = rights.all
            while let next = pending.popLast() {
                if state.live.contains(next) { return true }
                guard seen.insert(next).inserted, let waiting = state.links[next] else { continue }
                pending.append(contentsOf: waiting)
            }
            return false
        }
    }
}
