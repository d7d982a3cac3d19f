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

/// Expirations for one entry, per kind of tier.
public struct CacheExpirations: Sendable, Hashable {
    /// The expiration in ``MemoryStorage`` tiers; each tier's default when `nil`.
    public var memory: CacheExpiration?
    /// The expiration in every other tier (``DiskStorage`` and tiers you plug in); each tier's default
    /// when `nil`.
    public var disk: CacheExpiration?

    /// Creates expirations per kind of tier.
    /// - Parameters:
    ///   - memory: For ``MemoryStorage`` tiers; their default when `nil`.
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

/// A cache of tiers asked in order: by default ``MemoryStorage`` in front of ``DiskStorage``, behind one
/// async API; any ``CacheStorage`` can be put in front of, between or behind them.
///
/// ```swift
/// let posters = try Cache<Data>(name: "posters")
/// let image = try await posters.value(forKey: url.absoluteString) {
///     try await download(url)            // runs once, however many callers miss at once
/// }
/// ```
///
/// Stores write through to every tier; a value found in a later tier is moved into the earlier ones
/// with the lifetime it has left. Operations on one key run one at a time in the order they were
/// called, so the last completed store or remove of a key wins in every tier: a read that finds an old
/// value cannot put it back in front of a newer store, and a load that a store or remove overtook
/// hands its value to its callers without storing it. Different keys proceed in parallel. A memory hit
/// is answered on the caller's thread; disk work runs on CacheKit's own queue, never on the caller or
/// Swift's cooperative thread pool.
public final class Cache<Value: DataConvertible & Sendable>: Sendable {
    /// The tiers, asked in this order.
    public let tiers: [any CacheStorage<Value>]
    /// The first ``MemoryStorage`` among the tiers, if any.
    public let memory: MemoryStorage<String, Value>?
    /// The first ``DiskStorage`` among the tiers, if any.
    public let disk: DiskStorage<Value>?
    /// The front tier when it is a ``MemoryStorage``: a hit there needs no lane and no suspension.
    private let front: MemoryStorage<String, Value>?
    private let lanes = KeyLanes()
    private let loads = Locked(Loads())
    /// A test hook run between a miss and joining the in-flight loads; `nil` outside tests.
    private let beforeJoiningLoad = Locked<(@Sendable (String) async -> Void)?>(nil)
    /// A test hook run between a tier's hit and moving the value into the tiers in front of it.
    private let beforePromoting = Locked<(@Sendable (String) async -> Void)?>(nil)

    /// The loads running, and the keys callers are between a miss and a load of.
    private struct Loads: Sendable {
        var flights: [String: LoadFlight<Value>] = [:]
        /// Per key with callers between their miss and joining a load: how many callers, and how many
        /// changes (a finished load, a store, a remove, a removeAll) since the first of them arrived. A
        /// caller that sees a change looks again instead of loading: the value it would load may be
        /// older than the one just stored, or the one just loaded. Only the key's own changes count, and
        /// the entry goes when its last caller leaves, so it holds no more keys than callers waiting.
        var watched: [String: (callers: Int, changes: UInt64)] = [:]

        /// Counts a caller in for `key`; returns the changes so far, to compare with later.
        mutating func watch(_ key: String) -> UInt64 {
            let entry = watched[key] ?? (callers: 0, changes: 0)
            watched[key] = (entry.callers + 1, entry.changes)
            return entry.changes
        }

        /// Counts a caller out for `key`.
        mutating func unwatch(_ key: String) {
            guard let entry = watched[key] else { return }
            watched[key] = entry.callers > 1 ? (entry.callers - 1, entry.changes) : nil
        }

        /// Whether `key` changed since a caller read `changes`.
        func changed(_ key: String, since changes: UInt64) -> Bool {
            watched[key]?.changes != changes
        }

        /// Notes a change of `key`, or of every key when `nil`.
        mutating func noteChange(of key: String?) {
            guard let key else {
                for watchedKey in Array(watched.keys) { watched[watchedKey]?.changes &+= 1 }
                return
            }
            watched[key]?.changes &+= 1
        }
    }

    /// What a caller that missed does next.
    private enum AfterMiss {
        case found(CachedValue<Value>)
        case cancelled
        case lookAgain
        case join(LoadFlight<Value>, waiter: UInt64, isNew: Bool)
    }

    /// Creates a cache from a memory and a disk storage you configured: memory in front of disk.
    /// - Parameters:
    ///   - memory: The memory tier.
    ///   - disk: The disk tier.
    public convenience init(memory: MemoryStorage<String, Value>, disk: DiskStorage<Value>) {
        self.init(tiers: [memory, disk])
    }

    /// Creates a cache of any tiers, asked in the order given.
    ///
    /// ```swift
    /// let cache = Cache(tiers: [MemoryStorage(), try DiskStorage(), SharedRedisTier(client)])
    /// ```
    /// - Parameter tiers: The tiers, front first.
    public init(tiers: [any CacheStorage<Value>]) {
        self.tiers = tiers
        self.memory = tiers.lazy.compactMap { $0 as? MemoryStorage<String, Value> }.first
        self.disk = tiers.lazy.compactMap { $0 as? DiskStorage<Value> }.first
        self.front = tiers.first as? MemoryStorage<String, Value>
    }

    /// Creates a cache with default tiers: memory entries live 5 minutes, disk entries 7 days in
    /// `<caches>/<app>/CacheKit/<name>` (see ``DiskStorage/Configuration/directory``), at most 150 MB on
    /// disk. For a folder of your own, use ``init(directory:clock:)``.
    /// - Parameters:
    ///   - name: The disk folder's name under the platform caches directory.
    ///   - clock: The time source of both tiers; ``CacheClock/system`` by default.
    /// - Throws: ``CacheError`` when the disk directory cannot be created.
    public convenience init(name: String, clock: CacheClock = .system) throws(CacheError) {
        self.init(
            memory: MemoryStorage(clock: clock),
            disk: try DiskStorage(configuration: .init(name: name), clock: clock))
    }

    /// Creates a cache with default tiers in `directory`, or under the caches directory by `name` when
    /// `directory` is `nil`.
    /// - Parameters:
    ///   - name: Names the disk folder when `directory` is `nil`; ignored otherwise.
    ///   - directory: Where disk entries go; `nil` for the platform caches directory.
    ///   - clock: The time source of both tiers; ``CacheClock/system`` by default.
    /// - Throws: ``CacheError`` when the disk directory cannot be created.
    @available(
        *, deprecated,
        message: "use Cache(directory:) for a folder of your own, Cache(name:) for the caches directory"
    )
    public convenience init(name: String, directory: URL?, clock: CacheClock = .system) throws(CacheError) {
        self.init(
            memory: MemoryStorage(clock: clock),
            disk: try DiskStorage(configuration: .init(name: name, directory: directory), clock: clock))
    }

    /// A memory tier in front of a disk tier kept in `directory`, created if needed, each with its default
    /// limits: the one call for "a cache in this folder".
    ///
    /// ```swift
    /// let artwork = try Cache<Data>(directory: appSupport.appendingPathComponent("Artwork"))
    /// ```
    /// - Parameters:
    ///   - directory: The folder holding the disk entries.
    ///   - clock: The time source of both tiers; ``CacheClock/system`` by default.
    /// - Throws: ``CacheError`` when the disk directory cannot be created.
    public convenience init(directory: URL, clock: CacheClock = .system) throws(CacheError) {
        self.init(
            memory: MemoryStorage(clock: clock), disk: try DiskStorage(directory: directory, clock: clock))
    }

    // MARK: - Reading

    /// The live value for `key` from the first tier that has it (moving it into the tiers in front), or
    /// `nil`. Never throws: a corrupt disk entry is a miss, and so is a read whose task is cancelled while
    /// it waits for the key's turn (a store or remove of the key in progress).
    /// - Parameter key: The entry's key.
    /// - Returns: The value, or `nil`.
    public func value(forKey key: String) async -> Value? {
        await lookup(forKey: key)?.value
    }

    /// Like ``value(forKey:)``, and also says which tier answered.
    /// - Parameter key: The entry's key.
    /// - Returns: The value and its source, or `nil`.
    public func lookup(forKey key: String) async -> CachedValue<Value>? {
        if let hit = frontHit(key) { return hit }
        return await lookupBehindFront(key)
    }

    /// A hit in the front memory tier: no lane, no suspension.
    private func frontHit(_ key: String) -> CachedValue<Value>? {
        guard let front, let hit = front.entry(forKey: key, extending: .cacheTime) else { return nil }
        return CachedValue(value: hit.value, source: .memory)
    }

    /// The tiers behind the front one, holding the key's lane. A cancelled caller leaves the lane's line
    /// at once: a miss, which a loading caller turns into `CancellationError` before it loads.
    private func lookupBehindFront(_ key: String) async -> CachedValue<Value>? {
        await lanes.runUnlessCancelled(key) { await lookupHoldingLane(key) } ?? nil
    }

    private func lookupHoldingLane(_ key: String) async -> CachedValue<Value>? {
        // A store or load of the key may have reached the front memory tier while this caller waited for
        // the lane: served from there, not moved forward again from a later tier. Its miss was counted.
        if let front, let hit = front.entry(forKey: key, extending: .cacheTime, countingMiss: false) {
            return CachedValue(value: hit.value, source: .memory)
        }
        for (position, tier) in tiers.enumerated().dropFirst(front == nil ? 0 : 1) {
            guard let found = await tier.cachedEntry(forKey: key) else { continue }
            if position > 0 {
                if let hook = beforePromoting.withLock({ $0 }) { await hook(key) }
                for earlier in tiers[..<position] {
                    // A tier in front that cannot take it is not the caller's failure: it got its value.
                    try? await earlier.storeEntry(found.value, forKey: key, expiration: found.expiration)
                }
            }
            return CachedValue(value: found.value, source: Self.source(of: tier))
        }
        return nil
    }

    private static func source(of tier: any CacheStorage<Value>) -> CacheSource {
        if tier is MemoryStorage<String, Value> { return .memory }
        if tier is DiskStorage<Value> { return .disk }
        return .custom
    }

    /// The cached value for `key`, or the result of `load`, which is then stored in every tier with each
    /// tier's default expiration.
    ///
    /// Concurrent misses for one key share one call of `load`: every caller receives its value or its
    /// error, and a failed load caches nothing. If storing the loaded value in a tier fails, the value is
    /// still returned: the caller asked for a value, not for a store.
    ///
    /// A cancelled caller stops waiting at once and receives `CancellationError`; the shared load goes on
    /// for the others, and is itself cancelled (its value not stored) when every caller has left. A store
    /// or remove of `key` while the load runs wins: the loaded value is returned but not stored.
    /// - Parameters:
    ///   - key: The entry's key.
    ///   - load: Produces the value on a miss, once per concurrent miss.
    /// - Returns: The value.
    /// - Throws: What `load` throws, or `CancellationError`.
    public func value(
        forKey key: String,
        orLoad load: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await lookup(forKey: key, orLoad: load).value
    }

    /// Like ``value(forKey:orLoad:)``, with a loader that also says how long to keep the value (for
    /// example from an HTTP response's `Cache-Control: max-age`).
    /// - Parameters:
    ///   - key: The entry's key.
    ///   - load: Produces the value and its expirations on a miss, once per concurrent miss.
    /// - Returns: The value.
    /// - Throws: What `load` throws, or `CancellationError`.
    @_disfavoredOverload  // `value(forKey: k) { throw … }` means the plain loader
    public func value(
        forKey key: String,
        orLoadWithExpiration load: @escaping @Sendable () async throws -> LoadedValue<Value>
    ) async throws -> Value {
        try await lookup(forKey: key, orLoadWithExpiration: load).value
    }

    /// Like ``value(forKey:orLoad:)``, and also says whether the value came from a tier or the loader.
    /// - Parameters:
    ///   - key: The entry's key.
    ///   - load: Produces the value on a miss, once per concurrent miss.
    /// - Returns: The value and its source.
    /// - Throws: What `load` throws, or `CancellationError`.
    public func lookup(
        forKey key: String,
        orLoad load: @escaping @Sendable () async throws -> Value
    ) async throws -> CachedValue<Value> {
        try await lookup(
            forKey: key, orLoadWithExpiration: { LoadedValue(try await load(), expirations: .all(nil)) })
    }

    /// Like ``value(forKey:orLoadWithExpiration:)``, and also says whether the value came from a tier or
    /// the loader.
    /// - Parameters:
    ///   - key: The entry's key.
    ///   - load: Produces the value and its expirations on a miss, once per concurrent miss.
    /// - Returns: The value and its source.
    /// - Throws: What `load` throws, or `CancellationError`.
    @_disfavoredOverload  // `lookup(forKey: k) { throw … }` means the plain loader
    public func lookup(
        forKey key: String,
        orLoadWithExpiration load: @escaping @Sendable () async throws -> LoadedValue<Value>
    ) async throws -> CachedValue<Value> {
        while true {
            try Task.checkCancellation()
            // A front hit needs no watching: nothing will be loaded.
            if let hit = frontHit(key) { return hit }
            let before = loads.withLock { $0.watch(key) }
            let cached = await lookupBehindFront(key)
            if cached == nil, let hook = beforeJoiningLoad.withLock({ $0 }) { await hook(key) }
            let next = loads.withLock { loads -> AfterMiss in
                defer { loads.unwatch(key) }
                if let cached { return .found(cached) }
                if Task.isCancelled { return .cancelled }
                if let running = loads.flights[key] {
                    return .join(running, waiter: running.makeWaiter(), isNew: false)
                }
                // The key changed after our miss (a load finished, or a store, remove or removeAll ran):
                // look again rather than load a value that may be older, or load twice.
                if loads.changed(key, since: before) { return .lookAgain }
                let flight = LoadFlight<Value>()
                loads.flights[key] = flight
                return .join(flight, waiter: flight.makeWaiter(), isNew: true)
            }
            let (flight, waiter, isNew): (LoadFlight<Value>, UInt64, Bool)
            switch next {
            case .found(let cached): return cached
            case .cancelled: throw CancellationError()
            case .lookAgain: continue
            case .join(let joined, let joinedWaiter, let new):
                (flight, waiter, isNew) = (joined, joinedWaiter, new)
            }
            if isNew { flight.start { await self.runLoad(flight, forKey: key, load) } }
            do {
                let value = try await flight.wait(waiter) { [weak self] in self?.forget(flight, forKey: key) }
                return CachedValue(value: value, source: .loader)
            } catch is LoadFlight<Value>.Abandoned {
                continue
            }
        }
    }

    private func runLoad(
        _ flight: LoadFlight<Value>, forKey key: String,
        _ load: @escaping @Sendable () async throws -> LoadedValue<Value>
    ) async {
        let result: Result<LoadedValue<Value>, any Error>
        do {
            result = .success(try await load())
        } catch {
            result = .failure(error)
        }
        if case .success(let loaded) = result {
            // A store, remove or removeAll of the key since the load began wins over its value. So does a
            // removeAll running or waiting now, without waiting for it: it may be waiting for a caller
            // that waits for this load (a tier reading through the cache).
            _ = await lanes.runUnlessExclusivePending(key) {
                guard !flight.isStale else { return }
                _ = await storeInTiers(loaded.value, forKey: key, expirations: loaded.expirations)
            }
        }
        forget(flight, forKey: key)
        flight.finish(result.map(\.value))
    }

    /// Takes `flight` out of the running loads, if it is still the one for `key`.
    private func forget(_ flight: LoadFlight<Value>, forKey key: String) {
        let removed = loads.withLock { loads -> LoadFlight<Value>? in
            guard loads.flights[key] === flight else { return nil }
            loads.noteChange(of: key)
            return loads.flights.removeValue(forKey: key)
        }
        withExtendedLifetime(removed) {}
    }

    /// Marks the load of `key` (or every load) as overtaken by a store or remove, and notes the change
    /// for callers between their miss and a load.
    private func overtakeLoads(forKey key: String?) {
        let overtaken = loads.withLock { loads -> [LoadFlight<Value>] in
            loads.noteChange(of: key)
            guard let key else { return Array(loads.flights.values) }
            return loads.flights[key].map { [$0] } ?? []
        }
        for flight in overtaken { flight.markStale() }
    }

    /// Runs `hook` in every `lookup(forKey:orLoad:)` between its miss and joining the in-flight loads, so
    /// a test can hold a caller in that window.
    func setBeforeJoiningLoad(_ hook: (@Sendable (String) async -> Void)?) {
        beforeJoiningLoad.withLock { $0 = hook }
    }

    /// Runs `hook` between a later tier's hit and moving its value forward, so a test can hold a reader
    /// in that window.
    func setBeforePromoting(_ hook: (@Sendable (String) async -> Void)?) {
        beforePromoting.withLock { $0 = hook }
    }

    /// How many callers wait for `key`'s lane right now (for tests that hold one operation and need the
    /// next one queued behind it).
    func queuedOnLane(_ key: String) -> Int {
        lanes.queued(key)
    }

    /// How many `removeAll` calls wait for every lane right now (for tests).
    var queuedForEveryLane: Int {
        lanes.queuedExclusive
    }

    /// How many loads are running right now (for tests).
    var loadsInFlight: Int {
        loads.withLock { $0.flights.count }
    }

    /// How many callers are waiting for a load right now; lets tests start a load only once every
    /// concurrent caller has joined it.
    var waitingForLoads: Int {
        let flights = loads.withLock { Array($0.flights.values) }
        return flights.reduce(0) { $0 + $1.waiterCount }
    }

    /// Whether a live entry for `key` is in any tier. ``MemoryStorage`` and ``DiskStorage`` answer without
    /// counting a read; a tier of your own is asked through ``CacheStorage/cachedEntry(forKey:)``.
    /// - Parameter key: The entry's key.
    /// - Returns: `true` when a read would hit.
    public func contains(_ key: String) async -> Bool {
        for tier in tiers {
            if let memory = tier as? MemoryStorage<String, Value> {
                if memory.contains(key) { return true }
            } else if let disk = tier as? DiskStorage<Value> {
                if await disk.onDiskQueue({ disk.contains(key) }) { return true }
            } else if await lanes.run(key, { await tier.cachedEntry(forKey: key) }) != nil {
                // Under the key's lane: a tier is never asked about a key while it stores or removes it.
                return true
            }
        }
        return false
    }

    // MARK: - Writing and removing

    /// Stores `value` in every tier.
    /// - Parameters:
    ///   - value: The value to keep.
    ///   - key: The entry's key.
    ///   - expiration: Every tier's expiration for this entry; each tier's default when `nil`.
    /// - Throws: ``CacheError`` when a tier's store fails (the other tiers hold the value anyway).
    public func store(_ value: Value, forKey key: String, expiration: CacheExpiration? = nil)
        async throws(CacheError)
    {
        try await store(value, forKey: key, expirations: .all(expiration))
    }

    /// Stores `value` in every tier, with one expiration for memory tiers and another for the rest.
    ///
    /// ```swift
    /// try await cache.store(poster, forKey: url, expirations: .init(memory: .seconds(60), disk: .days(30)))
    /// ```
    /// - Parameters:
    ///   - value: The value to keep.
    ///   - key: The entry's key.
    ///   - expirations: The expirations per kind of tier.
    /// - Throws: ``CacheError`` when a tier's store fails (the other tiers hold the value anyway).
    public func store(_ value: Value, forKey key: String, expirations: CacheExpirations)
        async throws(CacheError)
    {
        let failure = await lanes.run(key) {
            overtakeLoads(forKey: key)
            return await storeInTiers(value, forKey: key, expirations: expirations)
        }
        if let failure { throw failure }
    }

    /// Stores in every tier in order; returns the first failure after trying them all.
    private func storeInTiers(_ value: Value, forKey key: String, expirations: CacheExpirations) async
        -> CacheError?
    {
        await inEveryTier(.store, key: key) { tier in
            let expiration = tier is MemoryStorage<String, Value> ? expirations.memory : expirations.disk
            try await tier.storeEntry(value, forKey: key, expiration: expiration)
        }
    }

    /// Runs `work` on every tier in order, each whatever the others did; returns the first failure as a
    /// ``CacheError`` (a tier of your own's error wrapped as ``CacheError/Reason/tier(_:)``).
    private func inEveryTier(
        _ operation: CacheError.Operation, key: String?,
        _ work: (any CacheStorage<Value>) async throws -> Void
    ) async -> CacheError? {
        var failure: CacheError?
        for tier in tiers {
            do {
                try await work(tier)
            } catch {
                failure =
                    failure ?? (error as? CacheError)
                    ?? CacheError(operation: operation, key: key, path: nil, reason: .tier(error))
            }
        }
        return failure
    }

    /// Removes the entry for `key` from every tier.
    /// - Parameter key: The entry's key.
    /// - Throws: ``CacheError`` when a tier cannot remove it (the other tiers have removed it anyway).
    public func removeValue(forKey key: String) async throws(CacheError) {
        let failure = await lanes.run(key) { () async -> CacheError? in
            overtakeLoads(forKey: key)
            return await inEveryTier(.remove, key: key) { try await $0.removeEntry(forKey: key) }
        }
        if let failure { throw failure }
    }

    /// Removes every entry from every tier, after the operations already running on any key.
    /// - Throws: ``CacheError`` when a tier cannot remove its entries.
    public func removeAll() async throws(CacheError) {
        let failure = await lanes.runExclusive { () async -> CacheError? in
            overtakeLoads(forKey: nil)
            return await inEveryTier(.removeAll, key: nil) { try await $0.removeAllEntries() }
        }
        if let failure { throw failure }
    }

    /// Removes expired entries from the memory and disk tiers (a tier of your own expires its own).
    /// - Returns: How many entries were removed, all tiers together.
    @discardableResult
    public func removeExpired() async -> Int {
        var removed = 0
        for tier in tiers {
            if let memory = tier as? MemoryStorage<String, Value> {
                removed += memory.removeExpired()
            } else if let disk = tier as? DiskStorage<Value> {
                removed += await disk.onDiskQueue { disk.removeExpired() }
            }
        }
        return removed
    }

    // MARK: - Inspecting

    /// The number of entries in the disk tier (stores write every entry there, within its limits; memory
    /// holds a recent subset); 0 without a disk tier.
    public var count: Int {
        get async {
            guard let disk else { return 0 }
            return await disk.onDiskQueue { disk.count }
        }
    }

    /// The total size in bytes of the disk entries; 0 without a disk tier.
    public var totalSize: Int {
        get async {
            guard let disk else { return 0 }
            return await disk.onDiskQueue { disk.totalSize }
        }
    }

    /// The memory and disk tiers' hits, misses, evictions and expirations.
    public var statistics: [CacheTier: CacheStatistics] {
        var statistics: [CacheTier: CacheStatistics] = [:]
        if let memory { statistics[.memory] = memory.statistics }
        if let disk { statistics[.disk] = disk.statistics }
        return statistics
    }
}
