import Foundation

/// A value found in, or loaded into, a ``Cache``, and where it came from.
public struct CachedValue<Value: Sendable>: Sendable {
    /// The value.
    public let value: Value
    /// The kind of the tier that had it (a tier of your own reports its ``CacheStorage/kind``), or `nil`
    /// when the loader passed to ``Cache/lookup(forKey:orLoad:)`` produced it. A value found in a later
    /// tier has now been moved into the tiers in front of it; a loaded one has been stored in every tier.
    public let tier: CacheTier?

    /// Whether the loader produced the value rather than a tier.
    public var wasLoaded: Bool { tier == nil }

    init(value: Value, tier: CacheTier?) {
        self.value = value
        self.tier = tier
    }
}
