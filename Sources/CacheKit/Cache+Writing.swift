import Foundation

extension Cache {
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
        try await store(LoadedValue(value, expiration: expiration), forKey: key)
    }

    /// Stores `value` in every tier, with one expiration for memory tiers and another for the rest.
    ///
    /// ```swift
    /// try await cache.store(poster, forKey: url, memoryExpiration: .seconds(60), diskExpiration: .days(30))
    /// ```
    /// - Parameters:
    ///   - value: The value to keep.
    ///   - key: The entry's key.
    ///   - memoryExpiration: For tiers whose ``CacheStorage/kind`` is `.memory`; their default when `nil`.
    ///   - diskExpiration: For every other tier; their default when `nil`.
    /// - Throws: ``CacheError`` when a tier's store fails (the other tiers hold the value anyway).
    public func store(
        _ value: Value, forKey key: String, memoryExpiration: CacheExpiration?,
        diskExpiration: CacheExpiration?
    ) async throws(CacheError) {
        try await store(
            LoadedValue(value, memoryExpiration: memoryExpiration, diskExpiration: diskExpiration),
            forKey: key)
    }

    private func store(_ value: LoadedValue<Value>, forKey key: String) async throws(CacheError) {
        let failure = await lanes.run(key) {
            overtakeLoads(forKey: key)
            return await storeInTiers(value, forKey: key)
        }
        if let failure { throw failure }
    }

    /// Stores in every tier in order, each with the expiration for its kind (a custom in-memory tier gets
    /// the memory one too); returns the first failure after trying them all.
    func storeInTiers(_ loaded: LoadedValue<Value>, forKey key: String) async -> CacheError? {
        await inEveryTier(.store, key: key) { tier in
            try await tier.store(loaded.value, forKey: key, expiration: loaded.expiration(in: tier.kind))
        }
    }

    /// Runs `work` on every tier in order, each whatever the others did; returns the first failure as a
    /// ``CacheError`` (a tier of your own's error wrapped as ``CacheError/Reason/tier(_:)``).
    func inEveryTier(
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
            return await inEveryTier(.remove, key: key) { try await $0.removeValue(forKey: key) }
        }
        if let failure { throw failure }
    }

    /// Removes every entry from every tier, after the operations already running on any key.
    ///
    /// Calls made while it waits queue behind it, except a hit in the front memory tier, which answers
    /// at once, and the calls of a tier it waits for (and of the loads that tier joined), which go first.
    /// - Throws: ``CacheError`` when a tier cannot remove its entries.
    public func removeAll() async throws(CacheError) {
        let failure = await lanes.runExclusive { () async -> CacheError? in
            overtakeLoads(forKey: nil)
            return await inEveryTier(.removeAll, key: nil) { try await $0.removeAll() }
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
}
