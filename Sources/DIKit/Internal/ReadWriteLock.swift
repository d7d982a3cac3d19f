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
/// `pthread_rwlock_t` with its default attributes on every platform (ThreadSanitizer understands it).
/// Readers hold it for a dictionary lookup, so a register waiting for it finds a gap between them
/// (`ConcurrencyTests` checks that registering goes on while two threads resolve without pause).
///
/// - Important: Never call code you do not own while holding it; a writer must not take it again.
@usableFromInline
final class ReadWriteLock: @unchecked Sendable {
    // @unchecked Sendable: the only stored property is a pointer to the lock primitive, allocated once in
    // `init` and never reassigned; every access goes through the primitive's own functions.
    @usableFromInline let primitive: UnsafeMutablePointer<pthread_rwlock_t>

    @usableFromInline
    init() {
        primitive = .allocate(capacity: 1)
        primitive.initialize(to: pthread_rwlock_t())
        pthread_rwlock_init(primitive, nil)
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
