/// Counters for one tier since it was created.
public struct CacheStatistics: Sendable, Hashable {
    /// Reads that found a live entry.
    public var hits = 0
    /// Reads that found nothing, or only an expired or corrupt entry.
    public var misses = 0
    /// Entries removed to respect a count, cost or size limit.
    public var evictions = 0
    /// Expired entries removed, by a read, a sweep or `removeExpired`.
    public var expirations = 0

    /// Creates counters; all zero by default.
    public init() {}

    /// Hits divided by reads; 0 before any read.
    public var hitRatio: Double {
        let reads = hits + misses
        return reads == 0 ? 0 : Double(hits) / Double(reads)
    }
}

/// Something that happened inside a cache, for logging or metrics.
///
/// It grows: a minor version may add a case, so a `switch` over it ends with `@unknown default:`
/// (Docs/Versioning.md, "How public errors grow").
public enum CacheEvent: Sendable, Hashable {
    /// A read found a live entry.
    case hit(CacheTier, key: String)
    /// A read found nothing live.
    case miss(CacheTier, key: String)
    /// An entry was removed to respect a limit.
    case evicted(CacheTier, key: String)
    /// An expired entry was removed.
    case expired(CacheTier, key: String)
    /// An entry was removed on request: `removeValue(forKey:)` or `removeAll()`.
    case removed(CacheTier, key: String)
    /// A disk entry could not be read back and was removed; `reason` says why.
    case removedCorruptEntry(key: String, path: String, reason: String)
}
