import Foundation

/// Expirations for one entry, per kind of tier.
public struct CacheExpirations: Sendable, Hashable {
    /// The expiration in tiers whose ``CacheStorage/kind`` is `.memory` (``MemoryStorage``, and an
    /// in-memory tier of your own that says so); each tier's default when `nil`.
    public var memory: CacheExpiration?
    /// The expiration in every other tier (``DiskStorage``, and tiers you plug in unless they say they
    /// keep values in memory); each tier's default when `nil`.
    public var disk: CacheExpiration?

    /// Creates expirations per kind of tier.
    /// - Parameters:
    ///   - memory: For tiers of kind `.memory`; their default when `nil`.
    ///   - disk: For every other tier; their default when `nil`.
    public init(memory: CacheExpiration?, disk: CacheExpiration?) {
        self.memory = memory
        self.disk = disk
    }

    /// The same expiration in every tier; each tier's default when `nil`.
    /// - Parameter expiration: The expiration.
    /// - Returns: Expirations with `expiration` for both kinds of tier.
    public static func all(_ expiration: CacheExpiration?) -> CacheExpirations {
        CacheExpirations(memory: expiration, disk: expiration)
    }
}

/// What a loader passed to ``Cache/value(forKey:orLoadWithExpiration:)`` returns: the value and how long
/// to keep it, for example from an HTTP response's `Cache-Control: max-age`.
public struct LoadedValue<Value: Sendable>: Sendable {
    /// The loaded value.
    public var value: Value
    /// How long each kind of tier keeps it.
    public var expirations: CacheExpirations

    /// A loaded value kept for `expiration` in every tier (each tier's default when `nil`).
    /// - Parameters:
    ///   - value: The loaded value.
    ///   - expiration: Its expiration in every tier.
    public init(_ value: Value, expiration: CacheExpiration?) {
        self.init(value, expirations: .all(expiration))
    }

    /// A loaded value with an expiration per kind of tier.
    /// - Parameters:
    ///   - value: The loaded value.
    ///   - expirations: Its expirations.
    public init(_ value: Value, expirations: CacheExpirations) {
        self.value = value
        self.expirations = expirations
    }
}
