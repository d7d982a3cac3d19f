import Foundation

/// Where a cache reads the current time: the system clock in production, a controllable one in tests,
/// so expiry is tested without sleeping.
///
/// ```swift
/// let clock = CacheClock { referenceDate }   // tests move `referenceDate` forward
/// let storage = MemoryStorage<String, Data>(clock: clock)
/// ```
public struct CacheClock: Sendable {
    /// Returns the current time.
    public let now: @Sendable () -> Date

    /// Creates a clock that reads the time from `now`.
    /// - Parameter now: Called whenever the cache needs the current time.
    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
        self.readsSystemTime = false
    }

    /// Whether this is ``system``, which the memory tier's hit reads as seconds, without making a `Date`.
    @usableFromInline let readsSystemTime: Bool

    private init(systemTime: Void) {
        self.now = { Date() }
        self.readsSystemTime = true
    }

    /// The system's wall clock (`Date()`).
    public static let system = CacheClock(systemTime: ())

    /// The current time in seconds since 1970: `now().timeIntervalSince1970`, read from the system's
    /// wall clock directly for ``system`` (the same clock `Date()` reads, at about a third of its cost:
    /// it was a tenth of a memory hit's instructions).
    @inlinable
    func secondsSince1970() -> Double {
        readsSystemTime ? Self.systemSecondsSince1970() : now().timeIntervalSince1970
    }

    @inlinable @inline(__always)
    static func systemSecondsSince1970() -> Double {
        var time = timespec()
        // CLOCK_REALTIME is the wall clock on Linux and on Apple platforms (where `clock_gettime` is
        // available since macOS 10.12 and iOS 10); it cannot fail with a valid clock and pointer.
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }
}
