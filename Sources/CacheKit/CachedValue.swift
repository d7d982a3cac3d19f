import Dispatch
import Foundation

/// Where a cached value came from.
public enum CacheSource: String, Sendable, Hashable {
    /// The memory tier.
    case memory
    /// The disk tier (the value has now been promoted to the tiers in front of it).
    case disk
    /// A tier of your own, plugged in through ``CacheStorage`` (the value has now been promoted to the
    /// tiers in front of it).
    case custom
    /// The loader passed to ``Cache/lookup(forKey:orLoad:)`` (the value has now been stored in every tier).
    case loader
}

/// A value found in, or loaded into, a ``Cache``, and where it came from.
public struct CachedValue<Value: Sendable>: Sendable {
    /// The value.
    public let value: Value
    /// Which tier, or the loader, supplied it.
    public let source: CacheSource
}
