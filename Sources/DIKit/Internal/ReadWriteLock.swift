#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A lock that many readers may hold at once, or one writer: the container's, so resolves on several
/// threads read its registrations and kept instances side by side, and only a register, a release or
/// the first creation of a shared instance excludes them.
///
/// `pthread_rwlock_t` on every platform (ThreadSanitizer understands it), preferring writers on Linux so a
/// register never waits behind an endless stream of resolves (`ConcurrencyTests` checks that registering
/// goes on while threads resolve without pause). Unlike `os_unfair_lock`, it does not lend a waiting
/// thread's priority to the holder on Apple platforms: a main-thread resolve may wait for a background
/// register, for as long as a registration takes (a dictionary insert).
///
/// - Important: Not re-entrant, for readers either. Never call code you do not own while holding it.
@usableFromInline
final class ReadWriteLock: @unchecked Sendable {
    // @unchecked Sendable: the only stored property is a pointer to the lock primitive, allocated once in
    // `init` and never reassigned; every access goes through the primitive's own functions.
    @usableFromInline let primitive: UnsafeMutablePointer<pthread_rwlock_t>

    @usableFromInline
    init() {
        primitive = .allocate(capacity: 1)
        primitive.initialize(to: pthread_rwlock_t())
        #if canImport(Glibc)
            // glibc prefers readers by default: threads resolving without pause could keep a register
            // waiting for as long as they go on. Preferring writers is safe here because no reader takes
            // the lock again while holding it (a reader queued behind a waiting writer would wait for
            // itself).
            var attributes = pthread_rwlockattr_t()
            pthread_rwlockattr_init(&attributes)
            pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
            pthread_rwlock_init(primitive, &attributes)
            pthread_rwlockattr_destroy(&attributes)
        #else
            pthread_rwlock_init(primitive, nil)
        #endif
    }

    deinit {
        pthread_rwlock_destroy(primitive)
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }

    /// Takes the lock for reading, beside other readers.
    @inlinable @inline(__always)
    func lockForReading() {
        pthread_rwlock_rdlock(primitive)
    }

    /// Gives the lock back, from reading or writing.
    @inlinable @inline(__always)
    func unlock() {
        pthread_rwlock_unlock(primitive)
    }

    /// Runs `body` while reading under the lock. `body` must not call user code or write.
    @inlinable @inline(__always)
    func withReadLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result
    {
        pthread_rwlock_rdlock(primitive)
        defer { pthread_rwlock_unlock(primitive) }
        return try body()
    }

    /// Runs `body` while holding the lock alone. `body` must not call user code.
    @inlinable @inline(__always)
    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_rwlock_wrlock(primitive)
        defer { pthread_rwlock_unlock(primitive) }
        return try body()
    }
}
