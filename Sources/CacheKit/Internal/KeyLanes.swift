/// Runs operations one key at a time, in the order they are called, and different keys in parallel; an
/// exclusive operation (``Cache/removeAll()``) waits for every key and holds them all.
///
/// What makes a ``Cache``'s last write win across tiers: a read that moves a value into an earlier tier
/// holds its key's lane, so a store or remove of that key cannot slip in between its read and its move.
///
/// - Order: callers that arrive while an exclusive operation runs or waits queue behind it in one line,
///   exclusive operations included, so `removeAll`, `store(k)`, `removeAll` run in that order.
/// - Nesting: a task that already holds a lane (a tier that reads another key through the same cache)
///   gets the next one without queueing behind a waiting exclusive operation, which waits for that very
///   task: queueing there would wait forever.
/// - Cancellation: a read waiting for its lane (``runUnlessCancelled(_:_:)``) leaves at once when its task
///   is cancelled. Stores and removes keep their place: skipping one would reorder the key's writes.
final class KeyLanes: Sendable {
    private typealias Continuation = CheckedContinuation<Bool, Never>

    private struct Waiter: Sendable {
        let id: UInt64
        let continuation: Continuation
    }

    private enum Queued: Sendable {
        case key(String, Waiter)
        case exclusive(Waiter)
    }

    private struct State: Sendable {
        /// Keys in use, each with the callers waiting for it, first come first.
        var busy: [String: [Waiter]] = [:]
        var exclusive = false
        /// Callers that arrived while an exclusive operation ran or waited, and the exclusive operations
        /// waiting, in the order they were called.
        var queue: [Queued] = []
        /// Waits cancelled before they were queued.
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 0

        var isOpen: Bool { !exclusive && queue.isEmpty }
    }

    private let state = Locked(State())

    /// Which lanes' instance the current task holds a lane of (nested calls bypass the queue).
    @TaskLocal private static var holder: ObjectIdentifier?

    /// Runs `body` holding `key`'s lane; waits for it however long, cancelled or not.
    func run<T, Failure: Error>(_ key: String, _ body: () async throws(Failure) -> T) async throws(Failure)
        -> T
    {
        _ = await acquire(key, cancellable: false)
        defer { release(key) }
        return try await holding(body)
    }

    /// Runs `body` holding `key`'s lane, or returns `nil` without running it when the task is cancelled
    /// before the lane is free.
    func runUnlessCancelled<T>(_ key: String, _ body: () async -> T) async -> T? {
        guard await acquire(key, cancellable: true) else { return nil }
        defer { release(key) }
        return await holding(body)
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

    /// Runs `body` marked as holding a lane of this instance.
    private func holding<T, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T
    {
        let result: Result<T, Failure> = await Self.$holder.withValue(ObjectIdentifier(self)) {
            do throws(Failure) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Takes `key`'s lane; false when `cancellable` and the task was cancelled before it was free.
    private func acquire(_ key: String, cancellable: Bool) async -> Bool {
        let nested = Self.holder == ObjectIdentifier(self)
        let id = state.withLock { state -> UInt64? in
            if state.busy[key] == nil, state.isOpen || (nested && !state.exclusive) {
                state.busy[key] = []
                return nil
            }
            state.nextID &+= 1
            return state.nextID
        }
        guard let id else { return true }
        let wait = {
            await withCheckedContinuation { (continuation: Continuation) in
                let resume = self.state.withLock { state -> Bool? in
                    if state.cancelled.remove(id) != nil { return false }
                    if state.busy[key] == nil, state.isOpen || (nested && !state.exclusive) {
                        state.busy[key] = []
                        return true
                    }
                    let waiter = Waiter(id: id, continuation: continuation)
                    if state.isOpen || nested {
                        state.busy[key, default: []].append(waiter)
                    } else {
                        state.queue.append(.key(key, waiter))
                    }
                    return nil
                }
                if let resume { continuation.resume(returning: resume) }
            }
        }
        guard cancellable else { return await wait() }
        let acquired = await withTaskCancellationHandler(operation: wait) { self.cancelWait(id) }
        state.withLock { _ = $0.cancelled.remove(id) }
        return acquired
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

    private func release(_ key: String) {
        let next = state.withLock { state -> [Continuation] in
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
    private static func drain(_ state: inout State) -> [Continuation] {
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
