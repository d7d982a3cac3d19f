import Foundation

extension DiskStorage {
    // MARK: - Writing

    /// Writes `value` for `key` atomically, replacing any earlier entry, then trims least recently used
    /// entries if a limit is exceeded. The entry just stored is never trimmed by its own store.
    ///
    /// The file is written outside the storage's lock. Of the stores of one key that succeed, the one
    /// called last wins, whichever finishes writing first; a remove called while this store writes wins
    /// over it (its file is discarded). A value already expired, or a storage whose count limit is 0,
    /// keeps nothing: the store removes the key's entry and writes no file. In async code the awaited form
    /// runs on CacheKit's disk queue.
    /// - Parameters:
    ///   - value: The value to keep.
    ///   - key: The entry's key; any string.
    ///   - expiration: This entry's expiration; ``Configuration/expiration`` when `nil` (the default).
    /// - Throws: ``CacheError`` with operation `store`: the value could not be encoded, the entry is
    ///   larger than ``Configuration/sizeLimit``, or the file could not be written. A failed store leaves
    ///   the previous entry for the key in place.
    public func store(_ value: Value, forKey key: String, expiration: CacheExpiration? = nil)
        throws(CacheError)
    {
        let payload: Data
        do {
            payload = try value.toData()
        } catch {
            throw CacheError(operation: .store, key: key, path: nil, reason: .encodingFailed(error))
        }
        let now = clock.now()
        let stored = StoredExpiration(expiration ?? configuration.expiration, now: now)
        let name = StableHash.hex(key)
        let path = path(of: name)
        // Checked before encoding, with overflow-checked sums: the trailer holds the key's length in 32 bits.
        let (withKey, keyOverflow) = payload.count.addingReportingOverflow(key.utf8.count)
        let (size, trailerOverflow) = withKey.addingReportingOverflow(EntryFile.trailerSize)
        guard !keyOverflow, !trailerOverflow, size <= configuration.sizeLimit, key.utf8.count <= UInt32.max
        else {
            throw CacheError(
                operation: .store, key: key, path: path,
                reason: .entryTooLarge(
                    size: keyOverflow || trailerOverflow ? .max : size, limit: configuration.sizeLimit))
        }
        // Expired on arrival, or a storage that keeps nothing: the store removes the key's entry.
        guard configuration.countLimit > 0, !stored.isExpired(at: now.timeIntervalSince1970) else {
            try removeValue(forKey: key)
            return
        }
        let file = EntryFile.encode(payload: payload, key: key, expiration: stored)
        var events: [CacheEvent] = []
        defer { emit(events) }
        let generation = state.withLock { state -> UInt64 in
            _ = ensureIndex(&state, at: now.timeIntervalSince1970, events: &events)
            state.nextGeneration &+= 1
            state.changes &+= 1
            // A renewal read before the index may be of a file this replaces or removes.
            state.earlyRenewals = [:]
            state.writing[name, default: (0, 0)].stores += 1
            return state.nextGeneration
        }
        let temporary = Self.temporaryPath(in: directoryPath, for: name, generation: generation)
        let descriptor: Int32
        do throws(POSIXFile.Failure) {
            descriptor = try createTemporaryFile(temporary, containing: file)
        } catch {
            state.withLock { Self.finishWriting(name, state: &$0) }
            throw CacheError(
                operation: .store, key: key, path: path,
                reason: .fileSystem(code: error.code, message: error.message))
        }
        defer { close(descriptor) }
        if let hook = hooks.withLock({ $0.beforeRename }) { hook(key) }
        let entry = IndexEntry(
            size: file.count, expiration: stored, generation: generation,
            key: configuration.onEvent == nil ? nil : key)
        // The file being replaced, held open so the rename below does not free its data under the lock: it
        // is freed when this descriptor closes, after unlocking. (If another store replaces it first, that
        // one file is freed under the lock; nothing breaks.)
        let replaced = try? POSIXFile.openForReading(path, writable: false)
        defer { if let replaced { close(replaced) } }
        let failure = state.withLock { state -> POSIXFile.Failure? in
            defer { Self.finishWriting(name, state: &state) }
            // In a shared folder: after catching up with other processes, listed in the journal with the
            // rename, under its lock.
            return changingShared(
                [name], in: &state, following: now.timeIntervalSince1970, events: &events
            ) { state -> POSIXFile.Failure? in
                guard generation > state.clearedBelow, generation > (state.writing[name]?.floor ?? 0),
                    generation > (state.index?.peek(name)?.storeOrder ?? 0)
                else { return nil }
                state.writing[name]?.floor = generation
                do throws(POSIXFile.Failure) {
                    try POSIXFile.move(temporary, to: path)
                } catch {
                    return error
                }
                if let replaced = state.index?.insert(entry, forKey: name) {
                    state.totalSize -= replaced.size
                }
                state.totalSize += file.count
                state.unreadable.remove(name)
                state.changes &+= 1
                state.earlyRenewals[name] = nil
                return nil
            }
        }
        // A later store or remove took over (the file was not renamed), or the rename failed.
        try? POSIXFile.remove(temporary)
        if let failure {
            throw CacheError(
                operation: .store, key: key, path: path,
                reason: .fileSystem(code: failure.code, message: failure.message))
        }
        // Recency survives a restart as the file's modification time; set once the file is in place.
        try? POSIXFile.setTimes(descriptor, to: now.timeIntervalSince1970)
        trimIfNeeded(keeping: name, at: now.timeIntervalSince1970, events: &events)
    }

    /// One store of `name` is done writing (renamed, discarded or failed).
    private static func finishWriting(_ name: String, state: inout State) {
        guard let writing = state.writing[name] else { return }
        state.writing[name] = writing.stores > 1 ? (writing.stores - 1, writing.floor) : nil
    }

    /// Raises `name`'s floor, if stores of it are writing, so none of them renames an older value over
    /// what just happened to the entry.
    static func raiseFloor(_ name: String, to generation: UInt64, state: inout State) {
        guard let writing = state.writing[name] else { return }
        state.writing[name] = (writing.stores, max(writing.floor, generation))
    }

    /// Removes least recently used entries down to ``Configuration/trimRatio`` of the limits, when one
    /// is exceeded, never the entry `kept`. One entry per turn of the lock, so readers get in between.
    /// In a shared folder the limits are the folder's: each turn first catches up with what every
    /// process stored, under the journal's lock, so no two processes evict for one excess.
    private func trimIfNeeded(keeping kept: String, at seconds: Double, events: inout [CacheEvent]) {
        var trimming = false
        while true {
            var retired: [String] = []
            defer { discard(retired) }
            var found: [CacheEvent] = []
            let evicted = state.withLock { state -> Bool in
                changingShared([], in: &state, following: seconds, events: &found) { state -> Bool in
                    evictOne(
                        keeping: kept, trimming: &trimming, state: &state, retired: &retired, events: &events)
                }
            }
            events += found
            if !evicted { return }
        }
    }

    /// One turn of ``trimIfNeeded(keeping:at:events:)``: evicts the least recently used entry other than
    /// `kept` when a limit is exceeded (or, once `trimming`, while above its target). Under the lock.
    private func evictOne(
        keeping kept: String, trimming: inout Bool, state: inout State, retired: inout [String],
        events: inout [CacheEvent]
    ) -> Bool {
        let countTarget = Self.fraction(configuration.trimRatio, of: configuration.countLimit)
        let sizeTarget = Self.fraction(configuration.trimRatio, of: configuration.sizeLimit)
        let count = state.index?.count ?? 0
        if !trimming {
            guard count > configuration.countLimit || state.totalSize > configuration.sizeLimit else {
                return false
            }
            trimming = true
        }
        guard count > countTarget || state.totalSize > sizeTarget,
            let victim = state.index?.oldestEntry(skipping: kept)
        else { return false }
        retireFile(name: victim.key, state: &state, into: &retired)
        state.statistics.evictions += 1
        if configuration.onEvent != nil {
            events.append(.evicted(.disk, key: victim.payload.key ?? victim.key))
        }
        return true
    }

    /// `ratio` (from 0 to 1) of `limit`, rounded down. `Double(Int.max)` rounds up past `Int.max`, so the
    /// product is checked before it becomes an `Int` again.
    private static func fraction(_ ratio: Double, of limit: Int) -> Int {
        let product = Double(limit) * ratio
        return product >= Double(Int.max) ? Int.max : Int(product)
    }

    /// A temporary file name no other storage or process picks: the entry's name, this process, this
    /// store's generation and 64 random bits.
    static func temporaryPath(in directory: String, for name: String, generation: UInt64) -> String {
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        return directory + "/" + TemporaryFile.prefix + name + "-" + String(getpid()) + "-"
            + String(generation)
            + "-" + random
    }
}
