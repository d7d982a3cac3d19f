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
    }

    /// The system's wall clock (`Date()`).
    public static let system = CacheClock { Date() }
}
