import Foundation

extension Cache {
    // MARK: - Reading

    /// The live value for `key` from the first tier that has it (moving it into the tiers in front), or
    /// `nil`. Never throws: a corrupt disk entry is a miss, and so is a read whose task is cancelled while
    /// it waits for the key's turn (a store or remove of the key in progress).
    /// - Parameter key: The entry's key.
    /// - Returns: The value, or `nil`.
    public func value(forKey key: String) async -> Value? {
        await lookup(forKey: key)?.value
    }

    /// Like ``value(forKey:)``, and also says which kind of tier answered.
    /// - Parameter key: The entry's key.
    /// - Returns: The value and the kind of tier that had it, or `nil`.
    public func lookup(forKey key: String) async -> CachedValue<Value>? {
        if let hit = frontHit(key) { return hit }
        return await lookupBehindFront(key)
    }

    /// A hit in the front memory tier: no lane, no suspension.
    func frontHit(_ key: String) -> CachedValue<Value>? {
        guard let front, let hit = front.entry(forKey: key, extending: .cacheTime) else { return nil }
        return CachedValue(value: hit.value, tier: .memory)
    }

    /// The tiers behind the front one, holding the key's lane. A cancelled caller leaves the lane's line
    /// at once: a miss, which a loading caller turns into `CancellationError` before it loads.
    func lookupBehindFront(_ key: String) async -> CachedValue<Value>? {
        await lanes.runUnlessCancelled(key) { await lookupHoldingLane(key) } ?? nil
    }

    func lookupHoldingLane(_ key: String) async -> CachedValue<Value>? {
        // A store or load of the key may have reached the front memory tier while this caller waited for
        // the lane: served from there, not moved forward again from a later tier. Its miss was counted.
        if let front, let hit = front.entry(forKey: key, extending: .cacheTime, countingMiss: false) {
            return CachedValue(value: hit.value, tier: .memory)
        }
        for (position, tier) in tiers.enumerated().dropFirst(front == nil ? 0 : 1) {
            guard let found = await tier.entry(forKey: key) else { continue }
            if position > 0 {
                if let hook = hooks.withLock({ $0.beforePromoting }) { await hook(key) }
                for earlier in tiers[..<position] {
                    // A tier in front that cannot take it is not the caller's failure: it got its value.
                    try? await earlier.store(found.value, forKey: key, expiration: found.expiration)
                }
            }
            return CachedValue(value: found.value, tier: tier.kind)
        }
        return nil
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
        try await lookup(forKey: key, orLoad: { LoadedValue(try await load()) }).value
    }

    /// Like ``value(forKey:orLoad:)``, with a loader that also says how long to keep the value (for
    /// example from an HTTP response's `Cache-Control: max-age`), and a result that says where the value
    /// came from.
    ///
    /// ```swift
    /// let found = try await cache.lookup(forKey: url) {
    ///     LoadedValue(try await download(url), expiration: .seconds(maxAge))
    /// }
    /// ```
    /// - Parameters:
    ///   - key: The entry's key.
    ///   - load: Produces the value and its expirations on a miss, once per concurrent miss.
    /// - Returns: The value and the kind of tier that had it (`nil` when loaded).
    /// - Throws: What `load` throws, or `CancellationError`.
    public func lookup(
        forKey key: String,
        orLoad load: @escaping @Sendable () async throws -> LoadedValue<Value>
    ) async throws -> CachedValue<Value> {
        while true {
            try Task.checkCancellation()
            // A front hit needs no watching: nothing will be loaded.
            if let hit = frontHit(key) { return hit }
            let before = loads.withLock { $0.watch(key) }
            let cached = await lookupBehindFront(key)
            if cached == nil, let hook = hooks.withLock({ $0.beforeJoiningLoad }) { await hook(key) }
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
                let flight = LoadFlight<Value>(laneToken: lanes.makeSponsoredToken())
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
            // A caller holding a lane (a tier reading through its cache) lends the load its right to pass
            // a waiting removeAll, which waits for that caller: the load may read through the cache too.
            lanes.sponsor(flight.laneToken)
            if isNew { flight.start { await self.runLoad(flight, forKey: key, load) } }
            do {
                let value = try await flight.wait(waiter) { [weak self] in self?.forget(flight, forKey: key) }
                return CachedValue(value: value, tier: nil)
            } catch is LoadFlight<Value>.Abandoned {
                continue
            }
        }
    }

    func runLoad(
        _ flight: LoadFlight<Value>, forKey key: String,
        _ load: @escaping @Sendable () async throws -> LoadedValue<Value>
    ) async {
        defer { lanes.endSponsorship(flight.laneToken) }
        let result: Result<LoadedValue<Value>, any Error> = await lanes.runSponsored(flight.laneToken) {
            do {
                return .success(try await load())
            } catch {
                return .failure(error)
            }
        }
        if case .success(let loaded) = result {
            // A store, remove or removeAll of the key since the load began wins over its value. So does a
            // removeAll running or waiting now, without waiting for it: it may be waiting for a caller
            // that waits for this load (a tier reading through the cache).
            _ = await lanes.runUnlessExclusivePending(key) {
                guard !flight.isStale else { return }
                _ = await storeInTiers(loaded, forKey: key)
            }
        }
        forget(flight, forKey: key)
        flight.finish(result.map(\.value))
    }

    /// Takes `flight` out of the running loads, if it is still the one for `key`.
    func forget(_ flight: LoadFlight<Value>, forKey key: String) {
        let removed = loads.withLock { loads -> LoadFlight<Value>? in
            guard loads.flights[key] === flight else { return nil }
            loads.noteChange(of: key)
            return loads.flights.removeValue(forKey: key)
        }
        withExtendedLifetime(removed) {}
    }

    /// Marks the load of `key` (or every load) as overtaken by a store or remove, and notes the change
    /// for callers between their miss and a load.
    func overtakeLoads(forKey key: String?) {
        let overtaken = loads.withLock { loads -> [LoadFlight<Value>] in
            loads.noteChange(of: key)
            guard let key else { return Array(loads.flights.values) }
            return loads.flights[key].map { [$0] } ?? []
        }
        for flight in overtaken { flight.markStale() }
    }

    /// Runs `hook` in every loading lookup between its miss and joining the in-flight loads, so
    /// a test can hold a caller in that window.
    func setBeforeJoiningLoad(_ hook: (@Sendable (String) async -> Void)?) {
        hooks.withLock { $0.beforeJoiningLoad = hook }
    }

    /// Runs `hook` between a later tier's hit and moving its value forward, so a test can hold a reader
    /// in that window.
    func setBeforePromoting(_ hook: (@Sendable (String) async -> Void)?) {
        hooks.withLock { $0.beforePromoting = hook }
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
    /// counting a read; a tier of your own is asked through ``CacheStorage/entry(forKey:)``.
    /// - Parameter key: The entry's key.
    /// - Returns: `true` when a read would hit.
    public func contains(_ key: String) async -> Bool {
        for tier in tiers {
            if let memory = tier as? MemoryStorage<String, Value> {
                if memory.contains(key) { return true }
            } else if let disk = tier as? DiskStorage<Value> {
                if await disk.onDiskQueue({ disk.contains(key) }) { return true }
            } else if await lanes.run(key, { await tier.entry(forKey: key) }) != nil {
                // Under the key's lane: a tier is never asked about a key while it stores or removes it.
                return true
            }
        }
        return false
    }
}
