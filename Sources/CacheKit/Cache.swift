import Dispatch
import Foundation

/// Where a cached value came from.
public enum CacheSource: String, Sendable, Hashable {
    /// The memory tier.
    case memory
    /// The disk tier (the value has now been promoted to memory).
    case disk
    /// The loader passed to ``Cache/lookup(forKey:orLoad:)`` (the value has now been stored in both tiers).
    case loader
}

/// A value found in, or loaded into, a ``Cache``, and where it came from.
public struct CachedValue<Value: Sendable>: Sendable {
    /// The value.
    public let value: Value
    /// Which tier, or the loader, supplied it.
    public let source: CacheSource
}

/// A two-tier cache: ``MemoryStorage`` in front of ``DiskStorage``, behind one async API.
///
/// ```swift
/// let posters = try Cache<Data>(name: "posters")
/// let image = try await posters.value(forKey: url.absoluteString) {
///     try await download(url)            // runs once, however many callers miss at once
/// }
/// ```
///
/// Stores write through to both tiers; a disk hit is promoted to memory. Memory work happens on the
/// caller's thread (it is a few hundred nanoseconds under a lock); disk work runs on the cache's own
/// serial queue, so it never blocks the caller or Swift's cooperative thread pool, and operations on
/// one key happen in the order they were called.
public final class Cache<Value: DataConvertible & Sendable>: Sendable {
    /// The memory tier.
    public let memory: MemoryStorage<String, Value>
    /// The disk tier.
    public let disk: DiskStorage<Value>
    private let diskQueue: DispatchQueue
    private let loads = Locked<[String: Task<Value, any Error>]>([:])
    private let loadWaiters = Locked(0)
    /// A test hook run between a miss and joining the in-flight loads; `nil` outside tests.
    private let beforeJoiningLoad = Locked<(@Sendable (String) async -> Void)?>(nil)

    /// Creates a cache from two storages you configured.
    /// - Parameters:
    ///   - memory: The memory tier.
    ///   - disk: The disk tier.
    public init(memory: MemoryStorage<String, Value>, disk: DiskStorage<Value>) {
        self.memory = memory
        self.disk = disk
        self.diskQueue = DispatchQueue(label: "CacheKit.Cache.disk", qos: .utility)
    }

    /// Creates a cache with default tiers: memory entries live 5 minutes, disk entries 7 days in
    /// `directory` (or the caches directory plus `name`), at most 150 MB on disk.
    /// - Parameters:
    ///   - name: Names the disk folder when `directory` is `nil`.
    ///   - directory: Where disk entries go; `nil` (the default) for the platform caches directory.
    ///   - clock: The time source of both tiers; ``CacheClock/system`` by default.
    /// - Throws: ``CacheError`` when the disk directory cannot be created.
    public convenience init(name: String, directory: URL? = nil, clock: CacheClock = .system)
        throws(CacheError)
    {
        self.init(
            memory: MemoryStorage(clock: clock),
            disk: try DiskStorage(configuration: .init(name: name, directory: directory), clock: clock))
    }

    // MARK: - Reading

    /// The live value for `key` from memory, else from disk (promoting it), else `nil`. Never throws:
    /// a corrupt disk entry is a miss.
    /// - Parameter key: The entry's key.
    /// - Returns: The value, or `nil`.
    public func value(forKey key: String) async -> Value? {
        await lookup(forKey: key)?.value
    }

    /// Like ``value(forKey:)``, and also says which tier answered.
    /// - Parameter key: The entry's key.
    /// - Returns: The value and its source, or `nil`.
    public func lookup(forKey key: String) async -> CachedValue<Value>? {
        if let value = memory.value(forKey: key) {
            return CachedValue(value: value, source: .memory)
        }
        guard let value = await onDiskQueue({ self.disk.value(forKey: key) }) else { return nil }
        memory.store(value, forKey: key)
        return CachedValue(value: value, source: .disk)
    }

    /// The cached value for `key`, or the result of `load`, which is then stored in both tiers.
    ///
    /// Concurrent misses for one key share one call of `load`: every caller receives its value or its
    /// error, and a failed load caches nothing. If storing the loaded value on disk fails, the value is
    /// still returned and kept in memory: the caller asked for a value, not for a store.
    ///
    /// - Important: Cancelling one waiting caller does not cancel the shared load, which others may
    ///   still need; that caller receives the result when the load finishes.
    /// - Parameters:
    ///   - key: The entry's key.
    ///   - load: Produces the value on a miss, once per concurrent miss.
    /// - Returns: The value.
    /// - Throws: What `load` throws.
    public func value(
        forKey key: String,
        orLoad load: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await lookup(forKey: key, orLoad: load).value
    }

    /// Like ``value(forKey:orLoad:)``, and also says whether the value came from memory, disk or the
    /// loader.
    /// - Parameters:
    ///   - key: The entry's key.
    ///   - load: Produces the value on a miss, once per concurrent miss.
    /// - Returns: The value and its source.
    /// - Throws: What `load` throws.
    public func lookup(
        forKey key: String,
        orLoad load: @escaping @Sendable () async throws -> Value
    ) async throws -> CachedValue<Value> {
        while true {
            if let cached = await lookup(forKey: key) { return cached }
            if let hook = beforeJoiningLoad.withLock({ $0 }) { await hook(key) }
            // Read before locking: the clock is the user's code, never called under a lock.
            let now = memory.clock.now().timeIntervalSince1970
            let joined = loads.withLock { loads -> Task<Value, any Error>? in
                if let running = loads[key] {
                    loadWaiters.withLock { $0 += 1 }
                    return running
                }
                // A load that finished after our miss stored its value before leaving `loads`: look again
                // rather than load twice.
                if memory.contains(key, atSeconds: now) { return nil }
                loadWaiters.withLock { $0 += 1 }
                let task = Task {
                    defer {
                        // The task handle is released after unlocking, like every value leaving a lock.
                        let finished = self.loads.withLock { $0.removeValue(forKey: key) }
                        withExtendedLifetime(finished) {}
                    }
                    let value = try await load()
                    memory.store(value, forKey: key)
                    try? await self.storeOnDisk(value, forKey: key, expiration: nil)
                    return value
                }
                loads[key] = task
                return task
            }
            guard let task = joined else { continue }
            defer { loadWaiters.withLock { $0 -= 1 } }
            return CachedValue(value: try await task.value, source: .loader)
        }
    }

    /// Runs `hook` in every `lookup(forKey:orLoad:)` between its miss and joining the in-flight loads, so
    /// a test can hold a caller in that window.
    func setBeforeJoiningLoad(_ hook: (@Sendable (String) async -> Void)?) {
        beforeJoiningLoad.withLock { $0 = hook }
    }

    /// How many loads are running right now (for tests).
    var loadsInFlight: Int {
        loads.withLock { $0.count }
    }

    /// How many callers are waiting for a load right now; lets tests start a load only once every
    /// concurrent caller has joined it.
    var waitingForLoads: Int {
        loadWaiters.withLock { $0 }
    }

    /// Whether a live entry for `key` is in either tier.
    /// - Parameter key: The entry's key.
    /// - Returns: `true` when a read would hit.
    public func contains(_ key: String) async -> Bool {
        if memory.contains(key) { return true }
        return await onDiskQueue { self.disk.contains(key) }
    }

    // MARK: - Writing and removing

    /// Stores `value` in memory and on disk.
    /// - Parameters:
    ///   - value: The value to keep.
    ///   - key: The entry's key.
    ///   - expiration: Both tiers' expiration for this entry; each tier's default when `nil`.
    /// - Throws: ``CacheError`` when the disk store fails (the memory tier holds the value anyway).
    public func store(_ value: Value, forKey key: String, expiration: CacheExpiration? = nil)
        async throws(CacheError)
    {
        memory.store(value, forKey: key, expiration: expiration)
        try await storeOnDisk(value, forKey: key, expiration: expiration)
    }

    /// Removes the entry for `key` from both tiers.
    /// - Parameter key: The entry's key.
    /// - Throws: ``CacheError`` when the disk file cannot be deleted.
    public func removeValue(forKey key: String) async throws(CacheError) {
        memory.removeValue(forKey: key)
        try await onDiskQueue { () -> Result<Void, CacheError> in
            Result { () throws(CacheError) in try self.disk.removeValue(forKey: key) }
        }.get()
    }

    /// Removes every entry from both tiers.
    /// - Throws: ``CacheError`` when a disk file cannot be deleted.
    public func removeAll() async throws(CacheError) {
        memory.removeAll()
        try await onDiskQueue { () -> Result<Void, CacheError> in
            Result { () throws(CacheError) in try self.disk.removeAll() }
        }.get()
    }

    /// Removes expired entries from both tiers.
    /// - Returns: How many entries were removed, both tiers together.
    @discardableResult
    public func removeExpired() async -> Int {
        let fromMemory = memory.removeExpired()
        return fromMemory + (await onDiskQueue { self.disk.removeExpired() })
    }

    // MARK: - Inspecting

    /// The number of entries on disk (every stored entry is there; memory holds a recent subset).
    public var count: Int {
        get async { await onDiskQueue { self.disk.count } }
    }

    /// The total size in bytes of the disk entries.
    public var totalSize: Int {
        get async { await onDiskQueue { self.disk.totalSize } }
    }

    /// Each tier's hits, misses, evictions and expirations.
    public var statistics: [CacheTier: CacheStatistics] {
        [.memory: memory.statistics, .disk: disk.statistics]
    }

    // MARK: - The disk queue

    private func storeOnDisk(_ value: Value, forKey key: String, expiration: CacheExpiration?)
        async throws(CacheError)
    {
        try await onDiskQueue { () -> Result<Void, CacheError> in
            Result { () throws(CacheError) in try self.disk.store(value, forKey: key, expiration: expiration)
            }
        }.get()
    }

    private func onDiskQueue<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            diskQueue.async { continuation.resume(returning: work()) }
        }
    }
}
