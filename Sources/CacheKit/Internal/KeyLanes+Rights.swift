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

/// Every ``KeyLanes`` instance of the process, and who waits for whom: each running load's token and
/// each lane holder's lease that someone waits for, linked to the rights of the tasks waiting. One lock
/// for all of it, taken after an instance's own (never before).
enum LaneRegistry {
    private struct Entry: Sendable {
        weak var lanes: KeyLanes?
    }

    private struct State: Sendable {
        var nextOwner: UInt64 = 0
        var instances: [UInt64: Entry] = [:]
        /// A load's token or a lane's lease, with the rights of the tasks waiting for it.
        var links: [LaneID: Set<LaneID>] = [:]
        /// The tokens of the loads running now: a task that joins a load after it finished links nothing,
        /// so no link outlives its load.
        var running: Set<LaneID> = []
    }

    private static let state = Locked(State())

    /// A number for a new instance.
    static func register() -> UInt64 {
        state.withLock { state in
            state.nextOwner &+= 1
            return state.nextOwner
        }
    }

    /// Lists `lanes`, so a new link lets its queued callers through.
    static func add(_ lanes: KeyLanes) {
        let owner = lanes.state.withLock { $0.owner }
        state.withLock { $0.instances[owner] = Entry(lanes: lanes) }
    }

    /// Forgets the instance `owner`, at its end.
    static func remove(_ owner: UInt64) {
        _ = state.withLock { $0.instances.removeValue(forKey: owner) }
    }

    /// Lets through, in every instance still alive, the queued callers a new link lets pass.
    static func letEveryInstanceThrough() {
        let all = state.withLock { $0.instances.values.compactMap(\.lanes) }
        for lanes in all { lanes.letThroughNested() }
    }

    /// Links `id` (a lane's lease, held now) to `rights`, those of a task waiting for it.
    static func link(_ id: LaneID, to rights: LaneRights) {
        state.withLock { $0.links[id, default: []].formUnion(rights.all) }
    }

    /// Marks the load of `token` running, so tasks that wait for it can link to it.
    static func open(_ token: LaneID) {
        _ = state.withLock { $0.running.insert(token) }
    }

    /// Links the load of `token` to `rights`, unless it has finished; whether it linked.
    static func link(load token: LaneID, to rights: LaneRights) -> Bool {
        state.withLock { state in
            guard state.running.contains(token) else { return false }
            state.links[token, default: []].formUnion(rights.all)
            return true
        }
    }

    /// Forgets the links of `id`: its load finished, or its lane was released.
    static func close(_ id: LaneID) {
        state.withLock { state in
            state.links[id] = nil
            state.running.remove(id)
        }
    }

    /// Whether anything is linked to `id` now (for tests).
    static func isLinked(_ id: LaneID) -> Bool {
        state.withLock { $0.links[id] != nil }
    }

    /// Whether `rights`, following the links of whoever waits for whom, reach one of `leases`.
    static func reaches(from rights: LaneRights, anyOf leases: Set<LaneID>) -> Bool {
        state.withLock { state in
            guard !state.links.isEmpty else { return false }
            var seen: Set<LaneID> = []
            var pending = rights.all
            while let next = pending.popLast() {
                if leases.contains(next) { return true }
                guard seen.insert(next).inserted, let waiting = state.links[next] else { continue }
                pending.append(contentsOf: waiting)
            }
            return false
        }
    }
}
