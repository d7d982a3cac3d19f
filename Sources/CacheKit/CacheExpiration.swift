import Foundation

/// When a cached entry stops being valid.
public enum CacheExpiration: Sendable, Hashable {
    /// The entry never expires; only limits and removal take it out.
    case never
    /// The entry expires this many seconds after it is stored.
    case seconds(TimeInterval)
    /// The entry expires this many days (of 86,400 seconds) after it is stored.
    case days(Int)
    /// The entry expires at a fixed moment.
    case date(Date)

    /// The moment an entry stored at `now` expires; `Date.distantFuture` for ``never``.
    /// - Parameter now: The moment the entry is stored or renewed.
    /// - Returns: The expiration date.
    public func expirationDate(from now: Date) -> Date {
        switch self {
        case .never: return .distantFuture
        case .seconds(let seconds): return now.addingTimeInterval(seconds)
        case .days(let days): return now.addingTimeInterval(TimeInterval(days) * 86_400)
        case .date(let date): return date
        }
    }

    /// Whether an entry with this expiration is already expired when stored at `now` (a zero or negative
    /// duration, or a date in the past).
    /// - Parameter now: The moment of the store.
    /// - Returns: `true` when the entry would be dead on arrival.
    public func isExpired(at now: Date) -> Bool {
        expirationDate(from: now) <= now
    }
}

/// What reading an entry does to its expiration.
public enum ExpirationExtending: Sendable, Hashable {
    /// Reading leaves the expiration as it is.
    case none
    /// Reading renews the entry for the duration it was originally stored with (a 5-minute entry read
    /// now lives 5 more minutes). An entry stored with a fixed ``CacheExpiration/date(_:)`` is renewed for
    /// the span between its store and that date.
    case cacheTime
    /// Reading gives the entry this new expiration, counted from the read.
    case newExpiration(CacheExpiration)
}

/// An expiration as stored with an entry: its deadline and the span to renew it by.
@usableFromInline
struct StoredExpiration: Sendable, Equatable {
    /// Seconds since 1970; `.infinity` for never.
    @usableFromInline var deadline: Double
    /// The original duration in seconds; `.infinity` for never.
    @usableFromInline var duration: Double

    @inlinable
    init(deadline: Double, duration: Double) {
        self.deadline = deadline
        self.duration = duration
    }

    @inlinable
    init(_ expiration: CacheExpiration, now: Date) {
        if case .never = expiration {
            self.init(deadline: .infinity, duration: .infinity)
            return
        }
        let deadline = expiration.expirationDate(from: now).timeIntervalSince1970
        self.init(deadline: deadline, duration: deadline - now.timeIntervalSince1970)
    }

    @inlinable
    func isExpired(at now: Double) -> Bool {
        deadline <= now
    }

    /// The expiration after a read at `now` under `extending`; `nil` when it does not change.
    @inlinable
    func extended(by extending: ExpirationExtending, now: Date) -> StoredExpiration? {
        switch extending {
        case .none:
            return nil
        case .cacheTime:
            guard duration.isFinite else { return nil }
            return StoredExpiration(deadline: now.timeIntervalSince1970 + duration, duration: duration)
        case .newExpiration(let expiration):
            return StoredExpiration(expiration, now: now)
        }
    }
}
