#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One stripe of a ``ReadWriteLock``: the primitive a reader takes.
@usableFromInline
typealias LockStripe = UnsafeMutablePointer<pthread_rwlock_t>

/// A lock that many readers may hold at once, or one writer: the container's, so resolves on several
/// threads read its registrations and kept instances side by side, and only a register, a release or
/// the first creation of a shared instance excludes them.
///
/// It is striped: eight `pthread_rwlock_t`s, each on cache lines of its own. A reader takes only its
/// thread's stripe (threads are given stripes in turn on their first resolve and keep them, see
/// ``ResolutionFrames``), so readers on threads with different stripes do not write the same reader
/// count, where one lock's was written by every resolve on every core (two threads resolving the app
/// graph: 4.6 to 5.0 µs a pair with one lock, 2.6 and 3.1 µs striped, in full runs on the 2-core VM,
/// Docs/Performance-Causes.md). A writer takes every stripe, in order.
///
/// `pthread_rwlock_t` on every platform (ThreadSanitizer understands it), preferring writers on Linux so a
/// register never waits behind an endless stream of resolves (`ConcurrencyTests` checks that registering
/// goes on while threads resolve without pause). Unlike `os_unfair_lock`, it does not lend a waiting
/// thread's priority to the holder on Apple platforms: a main-thread resolve may wait for a background
/// register, for as long as a registration takes (a dictionary insert).
///
/// - Important: Not re-entrant, for readers either. Never call code you do not own while holding it.
///   A reader holds one stripe and never waits for another, and a writer takes them in one order, so
///   the stripes cannot wait for each other in a circle.
@usableFromInline
final class ReadWriteLock: @unchecked Sendable {
    // @unchecked Sendable: the stored properties are a pointer to the stripes, allocated and initialised
    // once in `init` and never reassigned, and a copy of a pthread key; every access to a stripe goes
    // through the primitive's own functions.
    @usableFromInline let stripes: UnsafeMutableRawPointer
    /// ``ResolutionFrames/key``, copied so a reader finds its thread's stripe without the global's
    /// lazy-initialisation check.
    @usableFromInline let threadKey: FrameKey

    /// How many stripes: threads beyond eight share them in turn.
    @usableFromInline static var stripeCount: Int { 8 }
    /// The bytes from one stripe to the next: the primitive rounded up to 128 (a cache line on Apple
    /// silicon, two on x86), so no two stripes share a line. `pthread_rwlock_t` is 56 bytes with glibc
    /// and 200 on Darwin.
    @usableFromInline static var stripeBytes: Int {
        (MemoryLayout<pthread_rwlock_t>.stride + 127) / 128 * 128
    }

    @usableFromInline
    init() {
        threadKey = ResolutionFrames.key
        stripes = .allocate(byteCount: Self.stripeCount * Self.stripeBytes, alignment: 128)
        for index in 0..<Self.stripeCount {
            let primitive = (stripes + index * Self.stripeBytes).bindMemory(
                to: pthread_rwlock_t.self, capacity: 1)
            primitive.initialize(to: pthread_rwlock_t())
            #if canImport(Glibc)
                // glibc prefers readers by default: threads resolving without pause could keep a register
                // waiting for as long as they go on. Preferring writers is safe here because no reader takes
                // the lock again while holding it (a reader queued behind a waiting writer would wait for
                // itself).
                var attributes = pthread_rwlockattr_t()
                pthread_rwlockattr_init(&attributes)
                pthread_rwlockattr_setkind_np(
                    &attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
                pthread_rwlock_init(primitive, &attributes)
                pthread_rwlockattr_destroy(&attributes)
            #else
                pthread_rwlock_init(primitive, nil)
            #endif
        }
    }

    deinit {
        for index in 0..<Self.stripeCount {
            pthread_rwlock_destroy(stripe(index))
            stripe(index).deinitialize(count: 1)
        }
        stripes.deallocate()
    }

    /// The stripe at `index`.
    @inlinable @inline(__always)
    func stripe(_ index: Int) -> LockStripe {
        (stripes + index &* Self.stripeBytes).assumingMemoryBound(to: pthread_rwlock_t.self)
    }

    /// Takes stripe `index` for reading, beside other readers: the caller's thread's stripe, from its
    /// ``ThreadResolution``.
    @inlinable @inline(__always)
    func lockForReading(stripe index: Int) -> LockStripe {
        let stripe = stripe(index)
        pthread_rwlock_rdlock(stripe)
        return stripe
    }

    /// Gives back a stripe taken for reading.
    @inlinable @inline(__always)
    func unlock(reading stripe: LockStripe) {
        pthread_rwlock_unlock(stripe)
    }

    /// Runs `body` while reading under this thread's stripe. `body` must not call user code or write.
    @inlinable @inline(__always)
    func withReadLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result
    {
        let stripe = lockForReading(stripe: ResolutionFrames.slot(threadKey).pointee.stripe)
        defer { pthread_rwlock_unlock(stripe) }
        return try body()
    }

    /// Runs `body` while holding every stripe, so no reader or other writer is inside. `body` must not
    /// call user code.
    @inlinable @inline(__always)
    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        for index in 0..<Self.stripeCount { pthread_rwlock_wrlock(stripe(index)) }
        defer { for index in (0..<Self.stripeCount).reversed() { pthread_rwlock_unlock(stripe(index)) } }
        return try body()
    }
}
