/// Runs operations one key at a time, in the order they are called, and different keys in parallel; an
/// exclusive operation (``Cache/removeAll()``) waits for every key and holds them all.
///
/// What makes a ``Cache``'s last write win across tiers: a read that moves a value into an earlier tier
/// holds its key's lane, so a store or remove of that key cannot slip in between its read and its move.
///
/// - Order: callers that arrive while an exclusive operation runs or waits queue behind it in one line,
///   exclusive operations included, so `removeAll`, `store(k)`, `removeAll` run in that order.
/// - Nesting: a task that holds a lane (a tier that reads or writes another key through the same cache)
///   gets the next one without queueing behind a waiting exclusive operation, which waits for that very
///   task: queueing there would wait forever. A task holds a lane while its lease is live; an
///   unstructured task started inside inherits the lease but loses the right when the lane is released.
/// - Sponsoring: a shared load runs under a token of its own (``runSponsored(_:_:)``), which a lane
///   holder that waits for the load lends its right to (``sponsor(_:)``): the load's own reads then pass
///   a waiting exclusive operation while a holder waits for them, and queue as any caller once none does.
/// - Cancellation: a read waiting for its lane (``runUnlessCancelled(_:_:)``) leaves at once when its task
///   is cancelled. Stores and removes keep their place: skipping one would reorder the key's writes.
final class KeyLanes: Sendable {
    typealias Continuation = CheckedContinuation<Bool, Never>

    struct Waiter: Sendable {
        let id: UInt64
        let continuation: Continuation
        /// The lease or sponsored token of the task waiting, whose right to pass may come later.
        var held: UInt64? = nil
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
        /// The leases of the lanes held now; a task whose lease is here holds a lane.
        var leases: Set<UInt64> = []
        /// The tokens of running loads, each with the leases (or tokens) of the tasks waiting for it.
        var sponsors: [UInt64: Set<UInt64>] = [:]
        var nextID: UInt64 = 0

        /// A new lease for a lane just taken.
        mutating func lease() -> UInt64 {
            nextID &+= 1
            leases.insert(nextID)
            return nextID
        }

        var isOpen: Bool { !exclusive && queue.isEmpty }
    }

    let state = Locked(State())

    /// The lease of the lane the current task holds (or the token of the load it runs), and of which
    /// lanes (nested calls bypass the queue).
    @TaskLocal static var holder: (lanes: ObjectIdentifier, lease: UInt64)?

    /// Runs `body` holding `key`'s lane; waits for it however long, cancelled or not.
    func run<T, Failure: Error>(_ key: String, _ body: () async throws(Failure) -> T) async throws(Failure)
        -> T
    {
        let lease = await acquire(key, cancellable: false) ?? 0
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
    func runExclusive<T, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        await acquireAll()
        defer { releaseAll() }
        return try await body()
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

    /// Runs `body` marked as holding a lane of this instance under `lease`.
    private func holding<T, Failure: Error>(_ lease: UInt64, _ body: () async throws(Failure) -> T)
        async throws(Failure) -> T
    {
        let result: Result<T, Failure> = await Self.$holder.withValue((ObjectIdentifier(self), lease)) {
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
        -> UInt64?
    {
        let held = Self.holder.flatMap { $0.lanes == ObjectIdentifier(self) ? $0.lease : nil }
        let first = state.withLock { state -> (lease: UInt64?, waitID: UInt64?) in
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
        return state.withLock { state -> UInt64? in
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

    private func release(_ key: String, lease: UInt64) {
        let next = state.withLock { state -> [Continuation] in
            state.leases.remove(lease)
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
