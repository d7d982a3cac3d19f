import Foundation

/// When a cached entry stops being valid.
///
/// What a read does to it is ``ExpirationExtending``'s choice; the rule for each case is in one table in
/// Docs/CacheKit.md.
public enum CacheExpiration: Sendable, Hashable {
    /// The entry never expires; only limits and removal take it out.
    case never
    /// The entry expires this many seconds after it is stored.
    case seconds(TimeInterval)
    /// The entry expires this many days (of 86,400 seconds) after it is stored.
    case days(Int)
    /// The entry expires at a fixed moment; reads never move it (``ExpirationExtending/cacheTime``
    /// leaves it where it is).
    case date(Date)
    /// The entry expires at `date`, and a ``ExpirationExtending/cacheTime`` read renews it for
    /// `renewal` seconds from the read. This is how an entry keeps its remaining lifetime when it moves
    /// between tiers; a `renewal` that is not a positive finite number makes it a fixed ``date(_:)``.
    case until(Date, renewingBy: TimeInterval)

    /// The moment an entry stored at `now` expires; `Date.distantFuture` for ``never``.
    /// - Parameter now: The moment the entry is stored or renewed.
    /// - Returns: The expiration date.
    public func expirationDate(from now: Date) -> Date {
        switch self {
        case .never: return .distantFuture
        case .seconds(let seconds): return now.addingTimeInterval(seconds)
        case .days(let days): return now.addingTimeInterval(TimeInterval(days) * 86_400)
        case .date(let date), .until(let date, _): return date
        }
    }

    /// Whether an entry with this expiration is already expired when stored at `now` (a zero, negative
    /// or NaN duration, or a date in the past).
    /// - Parameter now: The moment of the store.
    /// - Returns: `true` when the entry would be dead on arrival.
    public func isExpired(at now: Date) -> Bool {
        StoredExpiration(self, now: now).isExpired(at: now.timeIntervalSince1970)
    }
}

/// What reading an entry does to its expiration.
public enum ExpirationExtending: Sendable, Hashable {
    /// Reading leaves the expiration as it is.
    case none
    /// Reading renews the entry for the duration it was originally stored with (a 5-minute entry read
    /// now lives 5 more minutes). An entry stored with a fixed ``CacheExpiration/date(_:)`` or with
    /// ``CacheExpiration/never`` is left as it is.
    case cacheTime
    /// Reading gives the entry this new expiration, counted from the read.
    case newExpiration(CacheExpiration)
}

/// An expiration as stored with an entry: its deadline and the span a ``ExpirationExtending/cacheTime``
/// read renews it by (0 when reads never move it).
@usableFromInline
struct StoredExpiration: Sendable, Equatable {
    /// Seconds since 1970; `.infinity` for never.
    @usableFromInline var deadline: Double
    /// Seconds a `.cacheTime` read renews the entry for; 0 for a fixed date, `.infinity` for never.
    @usableFromInline var duration: Double

    @inlinable
    init(deadline: Double, duration: Double) {
        // Numbers may come from a file or a user: NaN is dead on arrival, never immortal.
        self.deadline = deadline.isNaN ? -.infinity : deadline
        self.duration = duration.isNaN || duration < 0 ? 0 : duration
    }

    @inlinable
    init(_ expiration: CacheExpiration, now: Date) {
        self.init(expiration, at: now.timeIntervalSince1970)
    }

    /// The expiration of an entry stored `seconds` after 1970, computed on seconds, without a `Date`.
    @inlinable
    init(_ expiration: CacheExpiration, at seconds: Double) {
        switch expiration {
        case .never:
            self.init(deadline: .infinity, duration: .infinity)
        case .date(let date):
            self.init(deadline: date.timeIntervalSince1970, duration: 0)
        case .until(let date, let renewal):
            self.init(deadline: date.timeIntervalSince1970, duration: renewal.isFinite ? renewal : 0)
        case .seconds(let duration):
            let deadline = seconds + duration
            self.init(deadline: deadline, duration: deadline - seconds)
        case .days(let days):
            let deadline = seconds + Double(days) * 86_400
            self.init(deadline: deadline, duration: deadline - seconds)
        }
    }

    @inlinable
    func isExpired(at now: Double) -> Bool {
        !(deadline > now)
    }

    /// Applies a read at `seconds` since 1970 under `extending`, in place: the hit path's form of
    /// ``extended(by:now:)``, with the common `.cacheTime` renewal inlined.
    @inlinable @inline(__always)
    mutating func renew(by extending: ExpirationExtending, at seconds: Double) {
        if case .cacheTime = extending {
            if duration > 0, duration.isFinite { deadline = seconds + duration }
        } else if let renewed = extended(by: extending, now: Date(timeIntervalSince1970: seconds)) {
            self = renewed
        }
    }

    /// The expiration after a read at `now` under `extending`; `nil` when it does not change.
    @inlinable
    func extended(by extending: ExpirationExtending, now: Date) -> StoredExpiration? {
        switch extending {
        case .none:
            return nil
        case .cacheTime:
            guard duration > 0, duration.isFinite else { return nil }
            return StoredExpiration(deadline: now.timeIntervalSince1970 + duration, duration: duration)
        case .newExpiration(let expiration):
            return StoredExpiration(expiration, now: now)
        }
    }

    /// The same deadline and renewal as a public ``CacheExpiration``, to store in another tier.
    var asCacheExpiration: CacheExpiration {
        if deadline == .infinity { return .never }
        let date = Date(timeIntervalSince1970: deadline)
        return duration > 0 && duration.isFinite ? .until(date, renewingBy: duration) : .date(date)
    }
}
