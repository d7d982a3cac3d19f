import Foundation

/// The first read of a storage does not wait for the index: it starts building it on CacheKit's disk
/// queue and reads its own entry's file meanwhile, so opening a folder of 10,000 entries costs the first
/// hit one file read, not a listing of the folder.
///
/// The rules stay those of the index:
/// - Every other operation (a store, a remove, `count`, `contains`, a sweep) needs the index: while a
///   background build runs, it builds one on its own thread, as before, and the background one is
///   dropped when it finishes.
/// - A background build starts only when no store is writing, and is installed only if no store, remove
///   or `removeAll` began or finished since (each counts in `changes`), so the index lists every file
///   and the expired and damaged files it removes are the ones it read.
/// - A read served from its file renews it as a read through the index does: in the file, and in the
///   index when it is installed (or at once, if it was installed meanwhile and the entry is still the
///   file the build found).
extension DiskStorage {
    /// Starts building the index on CacheKit's disk queue unless a build already runs. Returns true:
    /// reads until it is installed read their own file.
    func buildIndexInBackground(_ state: inout State) -> Bool {
        if state.buildingInBackground { return true }
        // A store writing its file now (with no index: the folder could not be listed) may rename it
        // after the scan lists the folder: the index is then built on the caller's thread, as before.
        guard state.writing.isEmpty else { return false }
        state.buildingInBackground = true
        let changes = state.changes
        // In a shared folder, the journal's header before the listing, read under the lock.
        let mark = currentMark(&state)
        diskWorkQueue.async { [weak self] in self?.finishBackgroundBuild(since: changes, journalMark: mark) }
        return true
    }

    private func finishBackgroundBuild(since changes: UInt64, journalMark: SharedJournal.Mark?) {
        let seconds = clock.now().timeIntervalSince1970
        let scan = scanDirectory(at: seconds, journalMark: journalMark)
        if let hook = hooks.withLock({ $0.beforeInstallingIndex }) { hook() }
        var events: [CacheEvent] = []
        defer { emit(events) }
        state.withLock { state in
            state.buildingInBackground = false
            // An index built meanwhile on a caller's thread, or a change since the scan began: this scan
            // is out of date (the next read starts another if there is still no index).
            guard let scan, state.index == nil, state.changes == changes else { return }
            install(scan, into: &state, at: seconds, events: &events)
        }
    }

    /// Reads `name`'s file directly, before the index exists: a hit if it is a live entry of `key`,
    /// renewed in the file and remembered for the index; anything else is a miss, and left for the
    /// index build to judge.
    func readBeforeIndex(
        name: String, key: String, extending: ExpirationExtending, now: Date, events: inout [CacheEvent]
    ) -> (Data, StoredExpiration, UInt64)? {
        let seconds = now.timeIntervalSince1970
        // A store, remove or removeAll after this makes the renewal below stale: it is then not kept.
        let changes = state.withLock { state in
            state.readingBeforeIndex[name, default: 0] += 1
            return state.changes
        }
        defer {
            state.withLock { state in
                let left = (state.readingBeforeIndex[name] ?? 1) - 1
                state.readingBeforeIndex[name] = left > 0 ? left : nil
            }
        }
        if let hook = hooks.withLock({ $0.beforeReadingFile }) { hook(key) }
        let outcome = FileRead(
            path: path(of: name), key: key, sizeLimit: configuration.sizeLimit,
            injectedFailure: hooks.withLock({ $0.openFailure })?(name))
        defer { outcome.close() }
        guard case .entry(let payload, let stored) = outcome.result, !stored.isExpired(at: seconds) else {
            state.withLock { $0.statistics.misses += 1 }
            events.append(.miss(.disk, key: key))
            return nil
        }
        let renewed = stored.extended(by: extending, now: now)
        if let descriptor = outcome.descriptor {
            if let renewed {
                try? POSIXFile.write(descriptor, EntryFile.encode(renewed), at: outcome.deadlineOffset)
            }
            try? POSIXFile.setTimes(descriptor, to: seconds)
        }
        state.withLock { state in
            state.statistics.hits += 1
            if state.index == nil {
                guard state.changes == changes else { return }
                if let renewed {
                    state.earlyRenewals[name] = .some(renewed)
                } else if state.earlyRenewals[name] == nil {
                    state.earlyRenewals[name] = .some(nil)
                }
            } else if var entry = state.index?.peek(name), entry.generation == 0 {
                // Installed meanwhile, and still the file the build found (a store gives a generation).
                if let renewed {
                    entry.expiration = renewed
                    state.index?.insert(entry, forKey: name)
                }
                _ = state.index?.touch(name)
            }
        }
        events.append(.hit(.disk, key: key))
        return (payload, renewed ?? stored, 0)
    }
}
