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
    func storeInTiers(_ value: Value, forKey key: String, expirations: CacheExpirations) async
        -> CacheError?
    {
        await inEveryTier(.store, key: key) { tier in
            // The tier says which kind it is: a custom in-memory tier gets the memory expiration too.
            let expiration = tier.kind == .memory ? expirations.memory : expirations.disk
            try await tier.storeEntry(value, forKey: key, expiration: expiration)
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
}
