import Foundation

/// A wall clock the test moves by hand, so time is injected rather than slept on: each module's tests
/// adapt it to the clock their code takes (CacheKit's `CacheClock`, the HTTP cache's `now`).
public final class ManualClock: @unchecked Sendable {
    // @unchecked Sendable: `current` is only touched while holding `lock`.
    private let lock = NSLock()
    private var current: Date

    /// A clock reading `start`: a fixed moment by default (2027-01-15), so a test never depends on the
    /// day it runs.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = start
    }

    /// The time the clock reads now.
    public var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Moves the clock `seconds` forward (or back, when negative).
    public func advance(by seconds: TimeInterval) {
        lock.lock()
        current = current.addingTimeInterval(seconds)
        lock.unlock()
    }
}
