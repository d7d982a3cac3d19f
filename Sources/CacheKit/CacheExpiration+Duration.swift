import Foundation

/// The spans CacheKit takes, written as the `Duration`s NetworkLayer and Binding use: in CacheKit,
/// `.seconds(600)` names ``CacheExpiration/seconds(_:)``, a `TimeInterval`, and these accept a
/// `Duration` you already have.
extension CacheExpiration {
    /// The entry expires `duration` after it is stored: ``seconds(_:)`` for a `Duration`.
    /// ```swift
    /// let ttl: Duration = .seconds(600)
    /// try await cache.store(page, forKey: url, expiration: .after(ttl))
    /// ```
    /// - Parameter duration: How long the entry lives.
    /// - Returns: ``seconds(_:)`` of the same span.
    public static func after(_ duration: Duration) -> CacheExpiration {
        .seconds(duration.cacheSeconds)
    }

    /// The entry expires at `date`, and a ``ExpirationExtending/cacheTime`` read renews it for `renewal`:
    /// ``until(_:renewingBy:)-enum.case`` for a `Duration`.
    /// - Parameters:
    ///   - date: The first deadline.
    ///   - renewal: How long a read renews it for.
    /// - Returns: ``until(_:renewingBy:)-enum.case`` of the same span.
    public static func until(_ date: Date, renewingBy renewal: Duration) -> CacheExpiration {
        .until(date, renewingBy: renewal.cacheSeconds)
    }
}

extension MemoryStorage.Configuration {
    /// ``sweepInterval`` as a `Duration`; `nil` turns the periodic sweep off, and reads `nil` whenever
    /// the sweep is off (an interval that is NaN, infinite or more than a year), so writing back what was
    /// read never turns a sweep on.
    public var sweepPeriod: Duration? {
        get { Duration.sweepPeriod(of: sweepInterval) }
        set { sweepInterval = newValue?.cacheSeconds }
    }
}

extension DiskStorage.Configuration {
    /// ``sweepInterval`` as a `Duration`; `nil` turns the periodic sweep off, and reads `nil` whenever
    /// the sweep is off (an interval that is NaN, infinite or more than a year), so writing back what was
    /// read never turns a sweep on.
    public var sweepPeriod: Duration? {
        get { Duration.sweepPeriod(of: sweepInterval) }
        set { sweepInterval = newValue?.cacheSeconds }
    }
}

extension Duration {
    /// This span in seconds, as CacheKit's `TimeInterval`s count them; never a trap, even past
    /// `Int64.max` seconds, where `components` traps.
    var cacheSeconds: TimeInterval {
        self / .seconds(1)
    }

    /// The sweep period a storage runs with `interval`: `nil` when the sweep is off (no interval, NaN,
    /// infinite, or more than a year, as the storages read it).
    static func sweepPeriod(of interval: TimeInterval?) -> Duration? {
        guard let interval, interval.isFinite, interval <= 365 * 86_400 else { return nil }
        return cacheSeconds(interval)
    }

    /// `seconds` as a `Duration`; a span that is not finite, or beyond what a `Duration` holds, is
    /// clamped, never a trap.
    static func cacheSeconds(_ seconds: TimeInterval) -> Duration {
        guard seconds.isFinite else { return seconds > 0 ? .seconds(Int64.max) : .zero }
        let clamped = min(max(seconds, -9.2e18), 9.2e18)
        let whole = clamped.rounded(.towardZero)
        return .seconds(Int64(whole)) + .nanoseconds(Int64(((clamped - whole) * 1e9).rounded()))
    }
}
