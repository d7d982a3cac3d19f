import Foundation

// Names replaced by one vocabulary for tiers, lookups and expirations (CHANGELOG.md says how to move).

/// Expirations for one entry, per kind of tier.
@available(*, deprecated, message: "pass memoryExpiration: and diskExpiration: instead")
public struct CacheExpirations: Sendable, Hashable {
    /// The expiration in memory tiers; their default when `nil`.
    public var memory: CacheExpiration?
    /// The expiration in every other tier; their default when `nil`.
    public var disk: CacheExpiration?

    /// Creates expirations per kind of tier.
    /// - Parameters:
    ///   - memory: For tiers of kind `.memory`.
    ///   - disk: For every other tier.
    public init(memory: CacheExpiration?, disk: CacheExpiration?) {
        self.memory = memory
        self.disk = disk
    }

    /// The same expiration in every tier.
    /// - Parameter expiration: The expiration.
    /// - Returns: Expirations with `expiration` for both kinds of tier.
    public static func all(_ expiration: CacheExpiration?) -> CacheExpirations {
        CacheExpirations(memory: expiration, disk: expiration)
    }
}

/// Where a cached value came from.
@available(*, deprecated, message: "use CachedValue.tier (nil when loaded)")
public enum CacheSource: String, Sendable, Hashable {
    /// The memory tier.
    case memory
    /// The disk tier.
    case disk
    /// A tier of your own.
    case custom
    /// The loader.
    case loader
}

extension CachedValue {
    /// Where the value came from. A tier of your own now reports its kind (`.memory` or `.disk`), never
    /// `.custom`.
    @available(
        *, deprecated, message: "use tier (nil when loaded); a tier of your own reports its kind, not .custom"
    )
    public var source: CacheSource {
        switch tier {
        case .memory: .memory
        case .disk: .disk
        case nil: .loader
        }
    }
}

extension LoadedValue {
    /// Its expirations per kind of tier.
    @available(*, deprecated, message: "use memoryExpiration and diskExpiration")
    public var expirations: CacheExpirations {
        get { CacheExpirations(memory: memoryExpiration, disk: diskExpiration) }
        set { (memoryExpiration, diskExpiration) = (newValue.memory, newValue.disk) }
    }

    /// A loaded value with an expiration per kind of tier.
    /// - Parameters:
    ///   - value: The loaded value.
    ///   - expirations: Its expirations.
    @available(*, deprecated, renamed: "init(_:memoryExpiration:diskExpiration:)")
    public init(_ value: Value, expirations: CacheExpirations) {
        self.init(value, memoryExpiration: expirations.memory, diskExpiration: expirations.disk)
    }
}

extension Cache {
    /// Stores `value` with an expiration per kind of tier.
    /// - Parameters:
    ///   - value: The value to keep.
    ///   - key: The entry's key.
    ///   - expirations: The expirations per kind of tier.
    /// - Throws: ``CacheError``.
    @available(*, deprecated, renamed: "store(_:forKey:memoryExpiration:diskExpiration:)")
    public func store(_ value: Value, forKey key: String, expirations: CacheExpirations)
        async throws(CacheError)
    {
        try await store(
            value, forKey: key, memoryExpiration: expirations.memory, diskExpiration: expirations.disk)
    }

    /// The cached value for `key`, or the loaded one with its expirations.
    /// - Parameters:
    ///   - key: The entry's key.
    ///   - load: Produces the value and its expirations on a miss.
    /// - Returns: The value.
    /// - Throws: What `load` throws, or `CancellationError`.
    @available(*, deprecated, message: "use lookup(forKey:orLoad:), whose loader returns a LoadedValue")
    @_disfavoredOverload  // `value(forKey: k) { throw … }` means the current `value(forKey:orLoad:)`
    public func value(
        forKey key: String,
        orLoadWithExpiration load: @escaping @Sendable () async throws -> LoadedValue<Value>
    ) async throws -> Value {
        try await lookup(forKey: key, orLoad: load).value
    }

    /// The cached value for `key` and where it came from, or the loaded one with its expirations.
    /// - Parameters:
    ///   - key: The entry's key.
    ///   - load: Produces the value and its expirations on a miss.
    /// - Returns: The value and the kind of tier that had it.
    /// - Throws: What `load` throws, or `CancellationError`.
    @available(*, deprecated, renamed: "lookup(forKey:orLoad:)")
    @_disfavoredOverload  // `lookup(forKey: k) { … }` means the current `lookup(forKey:orLoad:)`
    public func lookup(
        forKey key: String,
        orLoadWithExpiration load: @escaping @Sendable () async throws -> LoadedValue<Value>
    ) async throws -> CachedValue<Value> {
        try await lookup(forKey: key, orLoad: load)
    }
}
