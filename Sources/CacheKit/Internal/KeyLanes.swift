/// Runs operations one key at a time, in the order they are called, and different keys in parallel; an
/// exclusive operation (``Cache/removeAll()``) waits for every key and holds them all.
///
/// What makes a ``Cache``'s last write win across tiers: a read that moves a value into an earlier tier
/// holds its key's lane, so a store or remove of that key cannot slip in between its read and its move.
///
/// - Order: callers that arrive while an exclusive operation runs or waits queue behind it in one line,
///   exclusive operations included, so `removeAll`, `store(k)`, `removeAll` run in that order.
/// - Rights: a task that holds a lane of any instance (or runs an exclusive operation's body), or runs a
///   load such a task waits for, may pass a waiting exclusive operation, which may wait for that very
///   task, directly or through other caches: queueing there could wait forever. What a task holds is a set, across every instance (``LaneRights``, a task-local added to
///   and never replaced), so a call through a second cache keeps the right to come back through the
///   first. Docs/Architecture.md ("Why `removeAll` adds no wait cycle") gives the argument.
/// - Sponsoring: a shared load runs under a token of its own (``runSponsored(_:_:)``); a task about to
///   wait for the load links the token to its own rights (``sponsor(_:)``), so the load's calls through
///   any cache pass a waiting exclusive operation that a task waiting for the load blocks.
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

        init(owner: UInt64) { self.owner = owner }

        /// A new lease for a lane (or every lane) just taken, live in the registry until released.
        mutating func lease() -> LaneID {
            nextID &+= 1
            let lease = LaneID(owner: owner, number: nextID)
            LaneRegistry.hold(lease)
            return lease
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
    /// The body holds a lease of its own: its calls through other caches pass their waiting exclusive
    /// operations as any lane holder's do.
    func runExclusive<T, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        await acquireAll()
        let lease = state.withLock { $0.lease() }
        defer {
            LaneRegistry.drop(lease)
            releaseAll()
        }
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
                return (state.lease(), nil)
            }
            state.nextID &+= 1
            return (nil, state.nextID)
        }
        guard let id = first.waitID else { return first.lease }  // taken, or refused
        let wait = {
            await withCheckedContinuation { (continuation: Continuation) in
                let resume = self.state.withLock { state -> Bool? in
                    if state.cancelled.remove(id) != nil { return false }
                    if unlessExclusivePending, !state.isOpen { return false }
                    let mayPass = state.isOpen || (state.mayNest(held) && !state.exclusive)
                    if state.busy[key] == nil, mayPass {
                        state.busy[key] = []
                        return true
                    }
                    let waiter = Waiter(id: id, continuation: continuation, held: held)
                    if mayPass {
                        state.busy[key, default: []].append(waiter)
                    } else {
                        state.queue.append(.key(key, waiter))
                    }
                    return nil
                }
                if let resume { continuation.resume(returning: resume) }
            }
        }
        let acquired: Bool
        if cancellable {
            acquired = await withTaskCancellationHandler(operation: wait) { self.cancelWait(id) }
        } else {
            acquired = await wait()
        }
        return state.withLock { state -> LaneID? in
            state.cancelled.remove(id)
            return acquired ? state.lease() : nil
        }
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
        let next = state.withLock { state -> [Continuation] in
            LaneRegistry.drop(lease)
            if var waiting = state.busy[key], !waiting.isEmpty {
                let next = waiting.removeFirst()
                state.busy[key] = waiting
                return [next.continuation]
            }
            state.busy[key] = nil
            return Self.drain(&state)
        }
        for continuation in next { continuation.resume(returning: true) }
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

    private func releaseAll() {
        let next = state.withLock { state -> [Continuation] in
            state.exclusive = false
            return Self.drain(&state)
        }
        for continuation in next { continuation.resume(returning: true) }
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
                    state.busy[key]?.append(waiter)
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
