import Foundation

extension DiskStorage {
    // MARK: - Removing

    /// Removes the entry for `key`, if any, and reports ``CacheEvent/removed(_:key:)``. A store of the
    /// same key still writing when this is called is discarded. In async code the awaited form runs on
    /// CacheKit's disk queue.
    /// - Parameter key: The entry's key.
    /// - Throws: ``CacheError`` with operation `remove` when the file exists but cannot be deleted.
    public func removeValue(forKey key: String) throws(CacheError) {
        let name = StableHash.hex(key)
        let seconds = clock.now().timeIntervalSince1970
        var events: [CacheEvent] = []
        defer { emit(events) }
        var retired: [String] = []
        defer { discard(retired) }
        try state.withLock { state throws(CacheError) in
            let indexed = ensureIndex(&state, at: seconds, events: &events, lookingUp: name)
            state.nextGeneration &+= 1
            state.changes &+= 1
            // A renewal read before the index may be of a file this replaces or removes.
            state.earlyRenewals = [:]
            Self.raiseFloor(name, to: state.nextGeneration, state: &state)
            // An entry that still cannot be opened is removed by name too, so it never comes back once it
            // can be; so is this storage's file when the index cannot be built (out of descriptors): a
            // remove removes the file or throws.
            let wasUnreadable = state.unreadable.remove(name) != nil
            let unindexed = !indexed && isOwnFile(name)
            guard wasUnreadable || unindexed || state.index?.peek(name) != nil else { return }
            let trash = Self.temporaryPath(in: directoryPath, for: name, generation: 0)
            try changingShared([name], in: &state, events: &events) { state throws(CacheError) in
                do throws(POSIXFile.Failure) {
                    try POSIXFile.move(path(of: name), to: trash)
                    retired.append(trash)
                } catch  where error.code == ENOENT {
                    // Already gone.
                } catch {
                    if wasUnreadable { state.unreadable.insert(name) }
                    throw CacheError(
                        operation: .remove, key: key, path: path(of: name),
                        reason: .fileSystem(code: error.code, message: error.message))
                }
            }
            if let removed = state.index?.remove(name) { state.totalSize -= removed.payload.size }
            if configuration.onEvent != nil { events.append(.removed(.disk, key: key)) }
        }
    }

    /// Removes every entry, reporting ``CacheEvent/removed(_:key:)`` for each indexed one, and any stale
    /// temporary file. Files the cache did not write, and other storages' temporary files still being
    /// written, are left alone; stores still writing when this is called are discarded. In async code the
    /// awaited form runs on CacheKit's disk queue.
    /// - Throws: ``CacheError`` with operation `removeAll` when a file cannot be deleted, or when the
    ///   folder cannot be listed before its index was built (out of descriptors), so its entries are not
    ///   known; the entries removed before it stay removed, and the others are still served.
    public func removeAll() throws(CacheError) {
        var events: [CacheEvent] = []
        defer { emit(events) }
        // In a shared folder, once the files are gone every process lists the folder again on its next
        // access (this one too): a new epoch of the journal.
        defer {
            if let journal {
                state.withLock { _ in _ = journal.withLock(exclusive: true) { journal.startEpoch() } }
            }
        }
        let seconds = clock.now().timeIntervalSince1970
        // Without an index, what the folder holds is known only by listing it: listed before anything
        // changes, so a folder that cannot be listed throws with the storage as it was.
        var listedFirst: [String]?
        if !state.withLock({ ensureIndex(&$0, at: seconds, events: &events) }) {
            do throws(POSIXFile.Failure) {
                listedFirst = try ownFiles()
            } catch {
                throw CacheError(
                    operation: .removeAll, key: nil, path: directoryPath,
                    reason: .fileSystem(code: error.code, message: error.message))
            }
        }
        let (removed, unreadable) = state.withLock { state -> (ClockTable<String, IndexEntry>, Set<String>) in
            _ = ensureIndex(&state, at: seconds, events: &events)
            state.nextGeneration &+= 1
            state.changes &+= 1
            // A renewal read before the index may be of a file this replaces or removes.
            state.earlyRenewals = [:]
            state.clearedBelow = state.nextGeneration
            defer {
                state.index = ClockTable()
                state.totalSize = 0
                state.unreadable = []
            }
            return (state.index ?? ClockTable(), state.unreadable)
        }
        if configuration.onEvent != nil {
            for name in removed.keysNewestFirst {
                events.append(.removed(.disk, key: removed.peek(name)?.key ?? name))
            }
        }
        // The files that carry CacheKit's trailer, and, by name, the entries indexed or seen unreadable (a
        // protected file on a locked device cannot be opened to check its trailer): read later, they
        // would bring back values stored before this call.
        // With an index, every entry is in it and is removed by name below, even if listing fails now.
        let listed = listedFirst ?? ((try? ownFiles()) ?? [])
        let byName = Set(removed.keysNewestFirst).union(unreadable).subtracting(listed)
        for name in listed + byName.sorted() {
            let trash = Self.temporaryPath(in: directoryPath, for: name, generation: 0)
            let failure = state.withLock { state -> POSIXFile.Failure? in
                // A store that renamed its file into place since then keeps it.
                guard state.index?.peek(name) == nil else { return nil }
                if name.hasPrefix(TemporaryFile.prefix) { return nil }
                do throws(POSIXFile.Failure) {
                    try POSIXFile.move(path(of: name), to: trash)
                    return nil
                } catch {
                    return error.code == ENOENT ? nil : error
                }
            }
            // A stale temporary file, or the entry just set aside under its temporary name.
            try? POSIXFile.remove(name.hasPrefix(TemporaryFile.prefix) ? path(of: name) : trash)
            if let failure {
                // Entries not yet removed are found again by listing the folder on the next use.
                state.withLock { $0.index = nil }
                throw CacheError(
                    operation: .removeAll, key: nil, path: path(of: name),
                    reason: .fileSystem(code: failure.code, message: failure.message))
            }
        }
    }

    /// Removes every expired entry, one per turn of the lock so readers are not held up. The periodic
    /// sweep calls this.
    /// - Returns: How many entries were removed.
    @discardableResult
    public func removeExpired() -> Int {
        let seconds = clock.now().timeIntervalSince1970
        var events: [CacheEvent] = []
        defer { emit(events) }
        let expired = state.withLock { state -> [String] in
            guard ensureIndex(&state, at: seconds, events: &events) else { return [] }
            return state.index?.keys(where: { $0.expiration.isExpired(at: seconds) }) ?? []
        }
        var removed = 0
        for name in expired {
            var retired: [String] = []
            defer { discard(retired) }
            state.withLock { state in
                // Stored again, or read and renewed, since the list was made: it stays.
                guard let entry = state.index?.peek(name), entry.expiration.isExpired(at: seconds),
                    expire(name, at: seconds, state: &state, retired: &retired, events: &events).retiredHere
                else {
                    return
                }
                state.statistics.expirations += 1
                removed += 1
                if configuration.onEvent != nil { events.append(.expired(.disk, key: entry.key ?? name)) }
            }
        }
        return removed
    }
}
