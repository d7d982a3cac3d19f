import Dispatch
import Foundation

/// One tier of a ``Cache``: the seam ``MemoryStorage`` and ``DiskStorage`` plug into, and yours too.
///
/// A ``Cache`` asks its tiers in order and moves a value found in a later tier into the earlier ones,
/// with the lifetime it has left. Put a tier of your own in front of or behind CacheKit's, or a mock in
/// tests. A server that outgrows one machine's disk plugs a shared store (Redis, memcached) in here
/// with the client library of its choice; CacheKit depends on none. Docs/CacheKit.md has a sketch.
///
/// The requirements are the tiers' own methods, by the same names: what a ``Cache`` calls on a tier is
/// what you call on ``MemoryStorage`` or ``DiskStorage`` directly.
///
/// A ``Cache`` never calls two methods for the same key at once, so a tier does not order them itself.
public protocol CacheStorage<Value>: Sendable {
    /// The values this tier keeps.
    associatedtype Value: Sendable

    /// The live entry for `key`, after this tier's renewal on read, or `nil` on a miss. An expired entry
    /// must not be returned.
    /// - Parameter key: The entry's key.
    /// - Returns: The value and the expiration it has from now on.
    func entry(forKey key: String) async -> CacheEntry<Value>?

    /// Stores `value` for `key`, replacing any earlier value.
    /// - Parameters:
    ///   - value: The value to keep.
    ///   - key: The entry's key.
    ///   - expiration: The entry's expiration; the tier's default when `nil`.
    func store(_ value: Value, forKey key: String, expiration: CacheExpiration?) async throws

    /// Removes the entry for `key`, if any.
    /// - Parameter key: The entry's key.
    func removeValue(forKey key: String) async throws

    /// Removes every entry.
    func removeAll() async throws

    /// Which kind of tier this is, which decides the expiration a ``Cache`` stores into it:
    /// `.memory` takes the memory expiration, `.disk` the disk one
    /// (``Cache/store(_:forKey:memoryExpiration:diskExpiration:)``). `.disk` unless the tier says
    /// otherwise; an in-memory tier of your own returns `.memory`.
    var kind: CacheTier { get }
}

extension CacheStorage {
    /// `.disk`: a tier of your own takes the disk expiration unless it says it keeps values in memory.
    public var kind: CacheTier { .disk }
}

/// A value read from a ``CacheStorage`` tier, with the expiration it has from now on.
public struct CacheEntry<Value: Sendable>: Sendable {
    /// The value.
    public var value: Value
    /// When it expires: ``CacheExpiration/never``, a fixed ``CacheExpiration/date(_:)``, or
    /// ``CacheExpiration/until(_:renewingBy:)-enum.case`` with the span a read renews it by. Stored with this
    /// expiration in another tier, the value keeps its remaining lifetime there.
    public var expiration: CacheExpiration

    /// Creates an entry.
    /// - Parameters:
    ///   - value: The value.
    ///   - expiration: When it expires.
    public init(value: Value, expiration: CacheExpiration) {
        self.value = value
        self.expiration = expiration
    }
}

extension MemoryStorage {
    /// The live entry for `key` with the expiration it has after this read, which renews it as
    /// ``value(forKey:extendingExpiration:)`` does by default; `nil` on a miss.
    /// - Parameter key: The entry's key.
    /// - Returns: The value and its expiration from now on, or `nil`.
    public func entry(forKey key: Key) -> CacheEntry<Value>? {
        entry(forKey: key, extending: .cacheTime).map {
            CacheEntry(value: $0.value, expiration: $0.expiration.asCacheExpiration)
        }
    }
}

/// Its own methods are the tier's: `entry(forKey:)`, `store(_:forKey:expiration:)`, `removeValue(forKey:)`
/// and `removeAll()` answer at once, without a hop.
extension MemoryStorage: CacheStorage where Key == String {
    /// `.memory`: a ``Cache`` stores into it with the memory expiration.
    public var kind: CacheTier { .memory }
}

/// Where ``DiskStorage``'s async methods do their file work: never on the caller's thread or Swift's
/// cooperative pool. Concurrent: reads and writes of different keys proceed in parallel.
let diskWorkQueue = DispatchQueue(label: "CacheKit.disk", qos: .utility, attributes: .concurrent)

/// In async code, `entry`, `store`, `removeValue` and `removeAll` are the awaited forms below, which run
/// on CacheKit's disk queue; synchronous code calls the same names and does the file work on its own
/// thread.
extension DiskStorage: CacheStorage {
    /// `.disk`: a ``Cache`` stores into it with the disk expiration.
    public var kind: CacheTier { .disk }

    /// The live entry for `key`, read on CacheKit's disk queue as the synchronous `entry(forKey:)` reads it.
    /// - Parameter key: The entry's key.
    /// - Returns: The value and its expiration from now on, or `nil`.
    public func entry(forKey key: String) async -> CacheEntry<Value>? {
        await onDiskQueue { self.entry(forKey: key) }
    }

    /// Stores `value` on CacheKit's disk queue, as the synchronous `store(_:forKey:expiration:)` does.
    /// - Parameters:
    ///   - value: The value to keep.
    ///   - key: The entry's key.
    ///   - expiration: The entry's expiration; ``Configuration/expiration`` when `nil`.
    /// - Throws: ``CacheError``.
    public func store(_ value: Value, forKey key: String, expiration: CacheExpiration? = nil)
        async throws(CacheError)
    {
        try await onDiskQueue { () -> Result<Void, CacheError> in
            Result { () throws(CacheError) in try self.store(value, forKey: key, expiration: expiration) }
        }.get()
    }

    /// Removes the entry for `key` on CacheKit's disk queue, as the synchronous `removeValue(forKey:)` does.
    /// - Parameter key: The entry's key.
    /// - Throws: ``CacheError``.
    public func removeValue(forKey key: String) async throws(CacheError) {
        try await onDiskQueue { () -> Result<Void, CacheError> in
            Result { () throws(CacheError) in try self.removeValue(forKey: key) }
        }.get()
    }

    /// Removes every entry on CacheKit's disk queue, as the synchronous `removeAll()` does.
    /// - Throws: ``CacheError``.
    public func removeAll() async throws(CacheError) {
        try await onDiskQueue { () -> Result<Void, CacheError> in
            Result { () throws(CacheError) in try self.removeAll() }
        }.get()
    }

    func onDiskQueue<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            diskWorkQueue.async { continuation.resume(returning: work()) }
        }
    }
}
