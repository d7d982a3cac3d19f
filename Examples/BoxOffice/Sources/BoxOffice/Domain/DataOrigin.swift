import Foundation

/// Where a chart or a film's details came from on this run: the service, or the app's own cache of what
/// it fetched before (a past day's chart and a film's details do not change, so a second look needs no
/// network).
public enum DataOrigin: Hashable, Sendable {
    /// Fetched from the service (or the demo data) just now.
    case network
    /// Read from the cache on disk, where it was saved at `savedAt`.
    case cache(savedAt: Date)
    /// Read from the cache on disk, past the time it was fresh for, because the service failed:
    /// `failure` says how ("KOBIS refused the request: KOBIS error 320010: 유효하지않은 키값입니다.").
    case cacheAfterFailure(savedAt: Date, failure: String)

    /// When the value was saved, for a value from the cache; `nil` for the network's.
    public var savedAt: Date? {
        switch self {
        case .network: nil
        case .cache(let savedAt), .cacheAfterFailure(let savedAt, _): savedAt
        }
    }
}
