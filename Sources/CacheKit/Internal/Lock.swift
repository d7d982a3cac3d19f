#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

#if canImport(Darwin)
    @usableFromInline typealias LockPrimitive = os_unfair_lock
#else
    @usableFromInline typealias LockPrimitive = pthread_mutex_t
#endif

/// A non-recursive mutual-exclusion lock that exists on iOS 16 and on Linux, and that ThreadSanitizer
/// understands.
///
/// `Synchronization.Mutex` needs iOS 18 / macOS 15, and on Linux ThreadSanitizer cannot see its futex
/// path, so it reports false races. This lock is `os_unfair_lock` on Apple platforms and a
/// `pthread_mutex_t` elsewhere; both are instrumented by TSan. Each module keeps its own copy of this file
/// so that no module depends on another (see Docs/Architecture.md).
///
/// - Important: The lock is not re-entrant. Never call code you do not own (user closures, factories,
///   subscribers) while holding it.
@usableFromInline
final class Lock: @unchecked Sendable {
    // @unchecked Sendable: the only stored property is a pointer to the lock primitive, allocated once
    // in `init` and never reassigned; every access to it goes through the primitive's own lock/unlock,
    // which is exactly what makes concurrent use safe.
    @usableFromInline let primitive: UnsafeMutablePointer<LockPrimitive>

    @usableFromInline
    init() {
        primitive = makePrimitive()
    }

    deinit {
        destroyPrimitive(primitive)
    }

    /// Takes the lock, waiting for it.
    @inlinable @inline(__always)
    func lock() {
        LockHandle(primitive: primitive).lock()
    }

    /// Gives the lock back.
    @inlinable @inline(__always)
    func unlock() {
        LockHandle(primitive: primitive).unlock()
    }

    /// Runs `body` while holding the lock. `body` must not call user code.
    @inlinable @inline(__always)
    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A value guarded by a lock: the only way to reach it is `withLock` (or, on a hot path, ``lock`` and
/// ``state`` together).
///
/// It holds its primitive itself rather than a ``Lock``: two allocations (the object and its primitive)
/// instead of three, which a request making several of them (its metrics, its cache exchange, the values
/// it carries) notices.
@usableFromInline
final class Locked<State> {
    @usableFromInline let primitive: UnsafeMutablePointer<LockPrimitive>
    // Unchecked: the lock already makes every access exclusive; the dynamic check cost about 120
    // instructions a lock (callgrind, Docs/Performance-Causes.md).
    @exclusivity(unchecked) @usableFromInline var state: State

    @usableFromInline
    init(_ state: State) {
        self.state = state
        primitive = makePrimitive()
    }

    deinit {
        destroyPrimitive(primitive)
    }

    /// The lock alone, for a hot path that takes it around one `inout` call instead of a closure
    /// (CacheKit's memory hit); everything else uses ``withLock(_:)``.
    @inlinable
    var lock: LockHandle { LockHandle(primitive: primitive) }

    /// Runs `body` on the value while holding the lock. `body` must not call user code.
    @inlinable @inline(__always)
    func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

// @unchecked Sendable: `state` is only read or written inside `withLock`, so no two threads touch it at
// once, and the conformance requires `State: Sendable`, so nothing unsafe can be handed across.
extension Locked: @unchecked Sendable where State: Sendable {}

/// A lock primitive, as ``Lock`` and ``Locked`` hold it: reached only through its own lock and unlock,
/// valid while its owner lives.
@usableFromInline
struct LockHandle {
    @usableFromInline let primitive: UnsafeMutablePointer<LockPrimitive>

    @inlinable @inline(__always)
    init(primitive: UnsafeMutablePointer<LockPrimitive>) {
        self.primitive = primitive
    }

    /// Takes the lock, waiting for it.
    @inlinable @inline(__always)
    func lock() {
        #if canImport(Darwin)
            os_unfair_lock_lock(primitive)
        #else
            pthread_mutex_lock(primitive)
        #endif
    }

    /// Gives the lock back.
    @inlinable @inline(__always)
    func unlock() {
        #if canImport(Darwin)
            os_unfair_lock_unlock(primitive)
        #else
            pthread_mutex_unlock(primitive)
        #endif
    }
}

/// A new primitive, ready, at an address that never changes (a lock must not move).
@usableFromInline
func makePrimitive() -> UnsafeMutablePointer<LockPrimitive> {
    let primitive = UnsafeMutablePointer<LockPrimitive>.allocate(capacity: 1)
    #if canImport(Darwin)
        primitive.initialize(to: os_unfair_lock())
    #else
        primitive.initialize(to: pthread_mutex_t())
        pthread_mutex_init(primitive, nil)
    #endif
    return primitive
}

/// Frees a primitive ``makePrimitive()`` made, once nothing holds it.
@usableFromInline
func destroyPrimitive(_ primitive: UnsafeMutablePointer<LockPrimitive>) {
    #if !canImport(Darwin)
        pthread_mutex_destroy(primitive)
    #endif
    primitive.deinitialize(count: 1)
    primitive.deallocate()
}
