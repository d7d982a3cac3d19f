#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Lets one thread at a time create a shared instance (a singleton, a weak instance, a `@LazyInject`
/// value) while the others wait, and refuses a wait that would never end.
///
/// A thread waits for a gate only after checking the chain of waits: if the gate's owner waits, directly
/// or through other threads, for a gate this thread owns, waiting would close a circle (two singletons
/// that need each other, created from opposite ends at once). ``enter(path:)`` then reports it instead
/// of blocking. The check and every gate's state share one process-wide monitor; gates are entered only
/// to create an instance the first time, so it is never on a hot path.
final class CreationGate: @unchecked Sendable {
    // @unchecked Sendable: `owner` is only read or written while holding `GateMonitor.shared`.
    private var owner: ThreadID?

    /// What happened at the gate.
    enum Entry {
        /// This thread owns the gate now; call ``leave()`` when done.
        case entered
        /// This thread already owns the gate: the instance needs itself.
        case reentered
        /// The owner waits, through zero or more threads, for this thread: the path the owner was
        /// resolving when it began to wait.
        case wouldWaitForever(ownerPath: [String])
    }

    /// Enters the gate, waiting while another thread owns it, unless that wait could never end.
    /// - Parameter path: This thread's resolution path up to the instance it wants; asked for only when
    ///   the thread has to wait, so the deadlock report can name it.
    func enter(path: () -> [String]) -> Entry {
        let monitor = GateMonitor.shared
        let me = ThreadID.current
        monitor.lock()
        defer { monitor.unlock() }
        while let owner {
            if owner == me { return .reentered }
            if let ownerPath = monitor.waitChain(from: owner, reaches: me) {
                return .wouldWaitForever(ownerPath: ownerPath)
            }
            monitor.waiting[me] = (self, path())
            monitor.wait()
            monitor.waiting[me] = nil
        }
        owner = me
        return .entered
    }

    /// Leaves the gate and wakes the threads waiting for it.
    func leave() {
        let monitor = GateMonitor.shared
        monitor.lock()
        owner = nil
        monitor.broadcast()
        monitor.unlock()
    }

    /// The gate's owner; read under the monitor only.
    fileprivate var currentOwner: ThreadID? { owner }
}

/// The process-wide lock and condition behind every ``CreationGate``, with the table of which thread
/// waits for which gate.
private final class GateMonitor: @unchecked Sendable {
    // @unchecked Sendable: `waiting` is only read or written while holding `mutex`; the mutex and the
    // condition are allocated once and live for the whole process.
    static let shared = GateMonitor()

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Each waiting thread, the gate it waits for, and the path it was resolving.
    var waiting: [ThreadID: (gate: CreationGate, path: [String])] = [:]

    private init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    func wait() { pthread_cond_wait(condition, mutex) }
    func broadcast() { pthread_cond_broadcast(condition) }

    /// Follows "waits for a gate owned by" from `thread`; returns the path `thread` is waiting with when
    /// the chain arrives at `target`, and `nil` when it ends elsewhere.
    func waitChain(from thread: ThreadID, reaches target: ThreadID) -> [String]? {
        var current = thread
        // Every thread checked before it began to wait, so the chain has no circle of its own; the
        // bound only guards against a broken invariant.
        for _ in 0...waiting.count {
            guard let (gate, _) = waiting[current], let next = gate.currentOwner else { return nil }
            if next == target { return waiting[thread]?.path }
            current = next
        }
        return nil
    }
}

/// Identifies the calling thread while it lives.
struct ThreadID: Hashable {
    private let raw: UInt

    static var current: ThreadID {
        #if canImport(Glibc)
            // glibc's pthread_t is an integer.
            ThreadID(raw: UInt(pthread_self()))
        #else
            // Darwin's and musl's pthread_t is a pointer.
            ThreadID(raw: UInt(bitPattern: pthread_self()))
        #endif
    }
}
