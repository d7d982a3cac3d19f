import Foundation

/// Where a chart or a film's details came from on this run: the service, or the app's own cache of what
/// it fetched before (a past day's chart and a film's details do not change, so a second look needs no
/// network).
public enum DataOrigin: Hashable, Sendable {
    /// Fetched from the service (or the demo data) just now.
    case network
    /// Read from the cache on disk, where it was saved at `savedAt`.
    case cache(savedAt: Date)
}
