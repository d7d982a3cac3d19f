import Foundation

/// What a loader passed to ``Cache/lookup(forKey:orLoad:)`` returns: the value and how long to keep it,
/// for example from an HTTP response's `Cache-Control: max-age`.
public struct LoadedValue<Value: Sendable>: Sendable {
    /// The loaded value.
    public var value: Value
    /// Its expiration in tiers whose ``CacheStorage/kind`` is `.memory`; their default when `nil`.
    public var memoryExpiration: CacheExpiration?
    /// Its expiration in every other tier (``DiskStorage``, and a tier of your own unless it says it keeps
    /// values in memory); their default when `nil`.
    public var diskExpiration: CacheExpiration?

    /// A loaded value kept for `expiration` in every tier; each tier's default when `nil` (the default).
    /// - Parameters:
    ///   - value: The loaded value.
    ///   - expiration: Its expiration in every tier.
    public init(_ value: Value, expiration: CacheExpiration? = nil) {
        self.init(value, memoryExpiration: expiration, diskExpiration: expiration)
    }

    /// A loaded value with one expiration for memory tiers and another for the rest.
    /// - Parameters:
    ///   - value: The loaded value.
    ///   - memoryExpiration: For tiers of kind `.memory`; their default when `nil`.
    ///   - diskExpiration: For every other tier; their default when `nil`.
    public init(_ value: Value, memoryExpiration: CacheExpiration?, diskExpiration: CacheExpiration?) {
        self.value = value
        self.memoryExpiration = memoryExpiration
        self.diskExpiration = diskExpiration
    }

    /// The expiration a tier of `kind` stores this value with.
    func expiration(in kind: CacheTier) -> CacheExpiration? {
        kind == .memory ? memoryExpiration : diskExpiration
    }
}
