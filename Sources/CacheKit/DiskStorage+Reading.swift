import Foundation

extension DiskStorage {
    // MARK: - Reading

    /// The live value for `key`, or `nil` on a miss.
    ///
    /// An expired entry, or a CacheKit file that is corrupt, fails its checksum, or is not decodable as
    /// `Value`, is removed and reported as a miss (before the index exists, it is a miss left to the
    /// index build); this never throws.
    /// - Parameters:
    ///   - key: The entry's key.
    ///   - extending: What this read does to the entry's expiration; ``ExpirationExtending/cacheTime``
    ///     by default.
    /// - Returns: The value, or `nil`.
    public func value(forKey key: String, extendingExpiration extending: ExpirationExtending = .cacheTime)
        -> Value?
    {
        entry(forKey: key, extending: extending)?.value
    }

    /// The live entry for `key` with the expiration it has after this read, which renews it as
    /// ``value(forKey:extendingExpiration:)`` does by default; `nil` on a miss. In async code the awaited
    /// form runs on CacheKit's disk queue.
    /// - Parameter key: The entry's key.
    /// - Returns: The value and its expiration from now on, or `nil`.
    public func entry(forKey key: String) -> CacheEntry<Value>? {
        entry(forKey: key, extending: .cacheTime).map {
            CacheEntry(value: $0.value, expiration: $0.expiration.asCacheExpiration)
        }
    }

    /// The live value for `key` with its expiration after this read; what ``Cache`` reads, so a value
    /// promoted to memory keeps its remaining lifetime.
    func entry(forKey key: String, extending: ExpirationExtending) -> (
        value: Value, expiration: StoredExpiration
    )? {
        let name = StableHash.hex(key)
        var events: [CacheEvent] = []
        defer { emit(events) }
        guard
            let (payload, expiration, generation) = readFile(
                name: name, key: key, extending: extending, events: &events)
        else { return nil }
        do {
            return (try Value.fromData(payload), expiration)
        } catch {
            let path = path(of: name)
            var retired: [String] = []
            // Read before locking: the clock is the user's code.
            let seconds = journal == nil ? 0 : clock.now().timeIntervalSince1970
            let removed = state.withLock { state -> Bool in
                // The read counted a hit; the caller gets a miss.
                state.statistics.hits -= 1
                state.statistics.misses += 1
                // A file read before the index exists is left to it (its renewal, already written to the
                // file, is not recorded for the index); a newer file is kept.
                state.earlyRenewals[name] = nil
                return retireDamaged(
                    name, generation: generation, at: seconds, state: &state, retired: &retired)
            }
            discard(retired)
            events =
                removed
                ? [.removedCorruptEntry(key: key, path: path, reason: "\(error)"), .miss(.disk, key: key)]
                : [.miss(.disk, key: key)]
            return nil
        }
    }

    /// Whether a live entry exists for `key`, judged from the index (the file is not read). Recency,
    /// expiration and statistics are unchanged; in a shared folder, an entry the index says has expired
    /// is checked against its file, and indexed again as the file has it when another process renewed
    /// or stored it.
    /// - Parameter key: The entry's key.
    /// - Returns: `true` when an unexpired entry is indexed for the key.
    public func contains(_ key: String) -> Bool {
        let name = StableHash.hex(key)
        let seconds = clock.now().timeIntervalSince1970
        var events: [CacheEvent] = []
        defer { emit(events) }
        return state.withLock { state in
            guard ensureIndex(&state, at: seconds, events: &events, lookingUp: name),
                let entry = state.index?.peek(name)
            else {
                return false
            }
            return !entry.expiration.isExpired(at: seconds)
                || renewedByAnotherProcess(name, at: seconds, state: &state) != nil
        }
    }

    /// An entry a read found expired in the index: removed (a miss), unless, in a shared folder, another
    /// process stored or renewed it since, which is then the entry read. Apart from the hit path, so the
    /// hit stays as small as it was.
    @inline(never)
    private func expiredOnRead(
        _ name: String, key: String, at seconds: Double, state: inout State, retired: inout [String],
        events: inout [CacheEvent]
    ) -> IndexEntry? {
        let outcome = expire(name, at: seconds, state: &state, retired: &retired, events: &events)
        if let live = outcome.live { return live }
        state.statistics.misses += 1
        if outcome.retiredHere {
            state.statistics.expirations += 1
            events.append(.expired(.disk, key: key))
        }
        return nil
    }

    /// Looks `name` up under the lock, reads and checks the file outside it, then settles the index under
    /// the lock again. Returns the payload, its expiration after this read, and the generation read.
    private func readFile(
        name: String, key: String, extending: ExpirationExtending, events: inout [CacheEvent]
    ) -> (Data, StoredExpiration, UInt64)? {
        let now = clock.now()
        let seconds = now.timeIntervalSince1970
        let path = path(of: name)
        var retired: [String] = []
        defer { discard(retired) }
        // Before the index exists, a read starts building it in the background and reads its own file.
        var early = false
        let found = state.withLock { state -> IndexEntry? in
            if state.index == nil, buildIndexInBackground(&state) {
                early = true
                return nil
            }
            guard ensureIndex(&state, at: seconds, events: &events, lookingUp: name),
                let position = state.index?.touch(name),
                let entry = state.index?.payload(at: position)
            else {
                state.statistics.misses += 1
                return nil
            }
            guard entry.expiration.isExpired(at: seconds) else { return entry }
            return expiredOnRead(
                name, key: key, at: seconds, state: &state, retired: &retired, events: &events)
        }
        if early {
            return readBeforeIndex(name: name, key: key, extending: extending, now: now, events: &events)
        }
        guard let found else {
            events.append(.miss(.disk, key: key))
            return nil
        }
        if let hook = hooks.withLock({ $0.beforeReadingFile }) { hook(key) }
        // Outside the lock: open, check and read the file. A store that renamed a newer file into place
        // meanwhile is read instead (it is the newest value); its generation tells us below.
        let outcome = FileRead(
            path: path, key: key, sizeLimit: configuration.sizeLimit,
            injectedFailure: hooks.withLock({ $0.openFailure })?(name))
        // What to write back after unlocking: the renewed deadline (if any) and the recency time.
        var renewal: (descriptor: Int32, expiration: StoredExpiration?)?
        defer {
            if let renewal {
                // The descriptor is the file that was read, even if a store has replaced it since.
                if let expiration = renewal.expiration {
                    try? POSIXFile.write(
                        renewal.descriptor, EntryFile.encode(expiration), at: outcome.deadlineOffset)
                }
                try? POSIXFile.setTimes(renewal.descriptor, to: seconds)
            }
            outcome.close()
        }
        return state.withLock { state -> (Data, StoredExpiration, UInt64)? in
            let current = state.index?.peek(name)
            let unchanged = current?.generation == found.generation
            switch outcome.result {
            case .entry(let payload, let stored):
                // The index's deadline rules the file it indexes (a renewal may not be written back yet);
                // a newer file that replaced it meanwhile carries its own.
                guard unchanged, var entry = current, let descriptor = outcome.descriptor else {
                    guard !stored.isExpired(at: seconds) else { break }
                    state.statistics.hits += 1
                    events.append(.hit(.disk, key: key))
                    // Which file was read is unknown: the generation read, so a late decoding failure
                    // never removes a newer file.
                    return (payload, stored, found.generation)
                }
                guard !entry.expiration.isExpired(at: seconds) else { break }
                let renewed = entry.expiration.extended(by: extending, now: now)
                if let renewed {
                    entry.expiration = renewed
                    state.index?.insert(entry, forKey: name)
                }
                renewal = (descriptor, renewed)
                state.statistics.hits += 1
                events.append(.hit(.disk, key: key))
                return (payload, entry.expiration, found.generation)
            case .otherKey:
                // Another key with the same hash owns this file: a miss, and the file stays.
                break
            case .unavailable:
                // Refused (a protected file while the device is locked), out of descriptors or memory,
                // an I/O error: a miss now; the entry stays indexed, so it is served, or removed by
                // name, later.
                break
            case .notOurs:
                // Something else took the entry's name (a pipe, a device, another program's file) or a
                // file larger than this storage writes: a miss, neither read nor deleted.
                if unchanged, let removed = state.index?.remove(name) {
                    state.totalSize -= removed.payload.size
                }
            case .damaged(let reason):
                if unchanged,
                    retireDamaged(
                        name, generation: found.generation, at: seconds, state: &state, retired: &retired)
                {
                    events.append(.removedCorruptEntry(key: key, path: path, reason: reason))
                }
            }
            state.statistics.misses += 1
            events.append(.miss(.disk, key: key))
            return nil
        }
    }
}
