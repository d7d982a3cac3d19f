/// Runs operations one key at a time, in the order they are called, and different keys in parallel; an
/// exclusive operation (``Cache/removeAll()``) waits for every key and holds them all.
///
/// What makes a ``Cache``'s last write win across tiers: a read that moves a value into an earlier tier
/// holds its key's lane, so a store or remove of that key cannot slip in between its read and its move.
///
/// - Order: callers that arrive while an exclusive operation runs or waits queue behind it in one line,
///   exclusive operations included, so `removeAll`, `store(k)`, `removeAll` run in that order; the one
///   exception is work the waiting exclusive operation itself waits for (below).
/// - Rights: what a task holds is a set across every instance (``LaneRights``, a task-local added to and
///   never replaced): the leases of its lanes, an exclusive body's lease, its loads' tokens. Who waits for
///   whom is linked in ``LaneRegistry``: a load's token to the tasks waiting for it, a lane's holder to
///   the callers behind its key, a running exclusive operation to the callers queued behind it, and every
///   holder to the callers queued behind a waiting one. A caller passes this instance's waiting exclusive
///   operation only when its rights reach one of this instance's leases through those links, that is
///   when the exclusive operation waits for it: queueing there would wait forever. Docs/Architecture.md
///   ("Why `removeAll` adds no wait cycle") gives the argument.
/// - Cancellation: a read waiting for its lane (``runUnlessCancelled(_:_:)``) leaves at once when its task
///   is cancelled. Stores and removes keep their place: skipping one would reorder the key's writes.
final class KeyLanes: Sendable {
    typealias Continuation = CheckedContinuation<Bool, Never>

    struct Waiter: Sendable {
        let id: UInt64
        let continuation: Continuation
        /// The rights of the task waiting, which may let it pass later (when a holder waits for it).
        var held = LaneRights()
    }

    enum Queued: Sendable {
        case key(String, Waiter)
        case exclusive(Waiter)
    }

    struct State: Sendable {
        /// Keys in use, each with the callers waiting for it, first come first.
        var busy: [String: [Waiter]] = [:]
        var exclusive = false
        /// Callers that arrived while an exclusive operation ran or waited, and the exclusive operations
        /// waiting, in the order they were called.
        var queue: [Queued] = []
        /// Waits cancelled before they were queued.
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 0
        /// This instance's number among every instance, which its leases carry.
        let owner: UInt64
        /// The leases held now: a lane's, or the running exclusive operation's.
        var leases: Set<LaneID> = []
        /// Each busy key's holder's lease.
        var holders: [String: LaneID] = [:]
        /// The running exclusive operation's lease.
        var exclusiveLease: LaneID?
        /// Leases the registry links to the rights of tasks waiting for them.
        var linked: Set<LaneID> = []
        /// Whether a link was made since the last look: every instance's queue is then looked at again.
        var relinked = false

        init(owner: UInt64) { self.owner = owner }

        /// A new lease: for `key`'s lane, or, for `nil`, for the running exclusive operation. It is
        /// linked to the rights of whoever waits for it: the callers behind the key, and the callers
        /// queued behind the exclusive operations (which wait for every lane's holder, or for the one
        /// running).
        mutating func lease(for key: String?) -> LaneID {
            nextID &+= 1
            let lease = LaneID(owner: owner, number: nextID)
            leases.insert(lease)
            if let key {
                holders[key] = lease
                for waiter in busy[key] ?? [] { link(lease, to: waiter.held) }
            } else {
                exclusiveLease = lease
            }
            for case .key(_, let waiter) in queue { link(lease, to: waiter.held) }
            return lease
        }

        /// Ends `lease`, and its links.
        mutating func end(_ lease: LaneID) {
            leases.remove(lease)
            if linked.remove(lease) != nil { LaneRegistry.close(lease) }
        }

        /// Records that the task with `rights` waits for the holder of `lease`: whatever the holder's
        /// rights reach now reaches the waiter's too.
        mutating func link(_ lease: LaneID, to rights: LaneRights) {
            guard !rights.isEmpty else { return }
            LaneRegistry.link(lease, to: rights)
            linked.insert(lease)
            relinked = true
        }

        /// `waiter` in line behind `key`'s holder, linked to it.
        mutating func wait(_ waiter: Waiter, behind key: String) {
            busy[key, default: []].append(waiter)
            if let holder = holders[key] { link(holder, to: waiter.held) }
        }

        /// `waiter` in line behind the exclusive operations, linked to what they wait for: the running
        /// one's lease, or every lane holder's while one waits.
        mutating func queue(_ waiter: Waiter, for key: String) {
            queue.append(.key(key, waiter))
            if let running = exclusiveLease {
                link(running, to: waiter.held)
            } else {
                for holder in holders.values { link(holder, to: waiter.held) }
            }
        }

        /// Whether a link was made since the last call.
        mutating func takeRelinked() -> Bool {
            defer { relinked = false }
            return relinked
        }

        var isOpen: Bool { !exclusive && queue.isEmpty }
    }

    let state: Locked<State>

    /// What the current task holds and runs, across every instance: the leases of its lanes and the
    /// tokens of its loads.
    @TaskLocal static var rights = LaneRights()

    init() {
        state = Locked(State(owner: LaneRegistry.register()))
        LaneRegistry.add(self)
    }

    deinit {
        LaneRegistry.remove(state.withLock { $0.owner })
    }

    /// Runs `body` holding `key`'s lane; waits for it however long, cancelled or not.
    func run<T, Failure: Error>(_ key: String, _ body: () async throws(Failure) -> T) async throws(Failure)
        -> T
    {
        // A wait that cannot be cancelled always ends with the lane.
        let lease = await acquire(key, cancellable: false) ?? LaneID(owner: 0, number: 0)
        defer { release(key, lease: lease) }
        return try await holding(lease, body)
    }

    /// Runs `body` holding `key`'s lane, or returns `nil` without running it when the task is cancelled
    /// before the lane is free.
    func runUnlessCancelled<T>(_ key: String, _ body: () async -> T) async -> T? {
        guard let lease = await acquire(key, cancellable: true) else { return nil }
        defer { release(key, lease: lease) }
        return await holding(lease, body)
    }

    /// Runs `body` holding `key`'s lane, unless an exclusive operation runs or waits, in which case it
    /// returns `nil` at once without running it: for work that the exclusive operation would undo
    /// anyway (a finished load's store), and that must not wait behind it (the exclusive operation may
    /// be waiting for a caller that waits for this work).
    func runUnlessExclusivePending<T>(_ key: String, _ body: () async -> T) async -> T? {
        guard let lease = await acquire(key, cancellable: false, unlessExclusivePending: true) else {
            return nil
        }
        defer { release(key, lease: lease) }
        return await holding(lease, body)
    }

    /// Runs `body` holding every lane.
    ///
    /// The body holds a lease of its own: its calls through other caches pass their waiting exclusive
    /// operations as any lane holder's do.
    func runExclusive<T, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        await acquireAll()
        let (lease, relinked) = state.withLock { ($0.lease(for: nil), $0.takeRelinked()) }
        if relinked { LaneRegistry.letEveryInstanceThrough() }
        defer { releaseAll(lease) }
        return try await holding(lease, body)
    }

    /// How many exclusive operations are waiting for every lane (for tests).
    var queuedExclusive: Int {
        state.withLock { state in
            state.queue.filter { if case .exclusive = $0 { true } else { false } }.count
        }
    }

    /// How many callers are queued behind `key`'s lane (for tests).
    func queued(_ key: String) -> Int {
        state.withLock { state in
            (state.busy[key]?.count ?? 0)
                + state.queue.filter { if case .key(key, _) = $0 { true } else { false } }.count
        }
    }

    /// Runs `body` with `lease` added to the task's rights.
    func holding<T, Failure: Error>(_ lease: LaneID, _ body: () async throws(Failure) -> T)
        async throws(Failure) -> T
    {
        let result: Result<T, Failure> = await Self.$rights.withValue(Self.rights.adding(lease)) {
            do throws(Failure) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Takes `key`'s lane and returns its lease; `nil` when `cancellable` and the task was cancelled
    /// before it was free, or when `unlessExclusivePending` and an exclusive operation runs or waits
    /// (judged under the lock, so it can never queue behind one).
    private func acquire(_ key: String, cancellable: Bool, unlessExclusivePending: Bool = false) async
        -> LaneID?
    {
        let held = Self.rights
        let first = state.withLock { state -> (lease: LaneID?, waitID: UInt64?) in
            if unlessExclusivePending, !state.isOpen { return (nil, nil) }
            let nested = state.mayNest(held)
            if state.busy[key] == nil, state.isOpen || (nested && !state.exclusive) {
                state.busy[key] = []
                return (state.lease(for: key), nil)
            }
            state.nextID &+= 1
            return (nil, state.nextID)
        }
        guard let id = first.waitID else { return first.lease }  // taken, or refused
        let wait = {
            await withCheckedContinuation { (continuation: Continuation) in
                let (resume, relinked) = self.state.withLock { state -> (Bool?, Bool) in
                    if state.cancelled.remove(id) != nil { return (false, false) }
                    if unlessExclusivePending, !state.isOpen { return (false, false) }
                    let mayPass = state.isOpen || (state.mayNest(held) && !state.exclusive)
                    if state.busy[key] == nil, mayPass {
                        state.busy[key] = []
                        return (true, false)
                    }
                    let waiter = Waiter(id: id, continuation: continuation, held: held)
                    if mayPass {
                        state.wait(waiter, behind: key)
                    } else {
                        state.queue(waiter, for: key)
                    }
                    return (nil, state.takeRelinked())
                }
                if let resume { continuation.resume(returning: resume) }
                if relinked { LaneRegistry.letEveryInstanceThrough() }
            }
        }
        let acquired: Bool
        if cancellable {
            acquired = await withTaskCancellationHandler(operation: wait) { self.cancelWait(id) }
        } else {
            acquired = await wait()
        }
        let (lease, relinked) = state.withLock { state -> (LaneID?, Bool) in
            state.cancelled.remove(id)
            return (acquired ? state.lease(for: key) : nil, state.takeRelinked())
        }
        if relinked { LaneRegistry.letEveryInstanceThrough() }
        return lease
    }

    /// Takes the waiter `id` out of line and tells it it was cancelled; remembered when it is not queued
    /// yet, so it never queues.
    private func cancelWait(_ id: UInt64) {
        let removed = state.withLock { state -> Continuation? in
            for (key, waiters) in state.busy {
                if let index = waiters.firstIndex(where: { $0.id == id }) {
                    return state.busy[key]?.remove(at: index).continuation
                }
            }
            if let index = state.queue.firstIndex(where: {
                if case .key(_, let waiter) = $0 { waiter.id == id } else { false }
            }) {
                if case .key(_, let waiter) = state.queue.remove(at: index) { return waiter.continuation }
            }
            state.cancelled.insert(id)
            return nil
        }
        removed?.resume(returning: false)
    }

    private func release(_ key: String, lease: LaneID) {
        let (next, relinked) = state.withLock { state -> ([Continuation], Bool) in
            state.end(lease)
            state.holders[key] = nil
            if var waiting = state.busy[key], !waiting.isEmpty {
                let next = waiting.removeFirst()
                state.busy[key] = waiting
                return ([next.continuation], state.takeRelinked())
            }
            state.busy[key] = nil
            return (Self.drain(&state), state.takeRelinked())
        }
        for continuation in next { continuation.resume(returning: true) }
        if relinked { LaneRegistry.letEveryInstanceThrough() }
    }

    private func acquireAll() async {
        let granted = state.withLock { state -> Bool in
            guard state.isOpen, state.busy.isEmpty else { return false }
            state.exclusive = true
            return true
        }
        if granted { return }
        _ = await withCheckedContinuation { (continuation: Continuation) in
            let now = state.withLock { state -> Bool in
                if state.isOpen, state.busy.isEmpty {
                    state.exclusive = true
                    return true
                }
                state.nextID &+= 1
                state.queue.append(.exclusive(Waiter(id: state.nextID, continuation: continuation)))
                return false
            }
            if now { continuation.resume(returning: true) }
        }
    }

    private func releaseAll(_ lease: LaneID) {
        let (next, relinked) = state.withLock { state -> ([Continuation], Bool) in
            state.end(lease)
            state.exclusiveLease = nil
            state.exclusive = false
            return (Self.drain(&state), state.takeRelinked())
        }
        for continuation in next { continuation.resume(returning: true) }
        if relinked { LaneRegistry.letEveryInstanceThrough() }
    }

    /// Lets the queue through in call order: each key caller takes its lane (or waits behind its key),
    /// up to the first exclusive operation, which starts once every lane is free and stops the rest.
    /// - Returns: The callers to resume, after unlocking.
    static func drain(_ state: inout State) -> [Continuation] {
        var resumed: [Continuation] = []
        while !state.exclusive, let first = state.queue.first {
            switch first {
            case .key(let key, let waiter):
                state.queue.removeFirst()
                if state.busy[key] == nil {
                    state.busy[key] = []
                    resumed.append(waiter.continuation)
                } else {
                    state.wait(waiter, behind: key)
                }
            case .exclusive(let waiter):
                guard state.busy.isEmpty else { return resumed }
                state.queue.removeFirst()
                state.exclusive = true
                resumed.append(waiter.continuation)
            }
        }
        return resumed
    }
}
