import Foundation

// A folder shared across processes (`Configuration.sharedAcrossProcesses`): each storage follows the
// others' changes through the folder's journal (`Internal/SharedJournal.swift`). Everything here runs
// under the storage's own lock; the journal's `flock` is only ever taken inside it (`flock` belongs to
// the open file, which the storage's threads share), never while user code runs.
extension DiskStorage {
    /// Brings the index up to date with what other processes changed since this storage last looked:
    /// one `pread` of the journal's header when nothing changed; otherwise the trailers of the names
    /// listed since, or the whole folder when a new epoch began. Under the storage's lock, with an index.
    /// A header that cannot be read now (an I/O error, a protected file on a locked device) is left for
    /// the next access: the index stays as it is.
    func followOtherProcesses(_ state: inout State, at seconds: Double, events: inout [CacheEvent]) {
        guard let journal, state.index != nil else { return }
        switch journal.header() {
        case .mark(let mark) where mark == state.journalSeen: return
        case .unreadable: return
        case .mark, .notOurs: break
        }
        let caughtUp =
            state.holdingJournal
            ? catchUp(journal, &state)
            : journal.withLock(exclusive: false) { catchUp(journal, &state) }
        guard !caughtUp else { return }
        // A new epoch (another process's `removeAll`, a full journal), or a header that is not ours:
        // list the folder again. A header not ours is replaced first, so the next access catches up.
        if journal.header() == .notOurs {
            if state.holdingJournal {
                journal.startEpoch()
            } else {
                journal.withLock(exclusive: true) { if journal.header() == .notOurs { journal.startEpoch() } }
            }
        }
        // The index in place until the listing succeeds: a folder that cannot be listed now keeps the
        // index this storage has, and the next access tries again.
        let mark = currentMark(&state)
        guard let scan = scanDirectory(at: seconds, journalMark: mark) else { return }
        state.index = nil
        state.totalSize = 0
        state.nextGeneration &+= 1
        install(
            scan, into: &state, at: seconds, events: &events,
            generation: Self.foreignGeneration | state.nextGeneration)
    }

    /// The journal's header read so that no change is half made: under the journal's shared lock (or
    /// the exclusive one this storage holds), since a change is listed before it is made. What a
    /// listing begun after it finds is then at least what the mark says. Under the storage's lock.
    func currentMark(_ state: inout State) -> SharedJournal.Mark? {
        guard let journal else { return nil }
        return state.holdingJournal ? journal.mark() : journal.withLock(exclusive: false) { journal.mark() }
    }

    /// Reads the names listed since `state.journalSeen` again; false when that is not possible (another
    /// epoch, a header not ours, a list that cannot be read). Hold the journal's lock.
    private func catchUp(_ journal: SharedJournal, _ state: inout State) -> Bool {
        guard let mark = journal.mark(), let seen = state.journalSeen, mark.epoch == seen.epoch,
            let names = journal.names(from: seen.count, to: mark.count)
        else { return false }
        for name in Set(names) { reindex(name, &state) }
        state.journalSeen = mark
        return true
    }

    /// The generation of an entry this storage learned of from the folder, not from its own store: the
    /// high bit set, so it never equals one a read of this process holds, and ordered as 0 (see
    /// ``IndexEntry/storeOrder``), so a store of this process under way still lands over it: across
    /// processes, of two stores at once either may win.
    static var foreignGeneration: UInt64 { DiskIndexEntry.foreignBit }

    /// Indexes `name` as its file is now, with a foreign generation (so work of this process on the file
    /// it replaced never applies to it); out of the index when it is gone or not ours.
    private func reindex(_ name: String, _ state: inout State) {
        switch readIndexEntry(name: name) {
        case .entry(var entry, _):
            state.nextGeneration &+= 1
            entry.generation = Self.foreignGeneration | state.nextGeneration
            if let replaced = state.index?.insert(entry, forKey: name) { state.totalSize -= replaced.size }
            state.totalSize += entry.size
            state.unreadable.remove(name)
        case .unavailable:
            state.unreadable.insert(name)
        case .damaged, .skipped:
            if let removed = state.index?.remove(name) { state.totalSize -= removed.payload.size }
        }
    }

    /// Runs `change` (renames and removals of entry files, under the storage's lock). In a shared folder
    /// it runs holding the journal's exclusive lock, after listing `names` as changed, so another process
    /// catching up sees the change and the list together; with `following`, this storage first catches
    /// up itself (under the shared lock, then what arrived meanwhile under the exclusive one, so the
    /// exclusive lock is held for a few system calls). Without sharing it just runs `change`.
    func changingShared<T, E: Error>(
        _ names: [String], in state: inout State, following seconds: Double? = nil,
        events: inout [CacheEvent], _ change: (inout State) throws(E) -> T
    ) throws(E) -> T {
        guard let journal else { return try change(&state) }
        let outermost = !state.holdingJournal
        if outermost {
            if let seconds { followOtherProcesses(&state, at: seconds, events: &events) }
            journal.lock(exclusive: true)
            state.holdingJournal = true
        }
        defer {
            if outermost {
                state.holdingJournal = false
                journal.unlock()
            }
        }
        if outermost, let seconds { followOtherProcesses(&state, at: seconds, events: &events) }
        if !names.isEmpty {
            if let appended = journal.append(names) {
                if appended.before == state.journalSeen { state.journalSeen = appended.after }
            } else {
                // Not listed (no space, an I/O error): a new epoch, so every process lists the folder.
                journal.startEpoch()
            }
        }
        return try change(&state)
    }

    /// In a shared folder, lists `names`, whose files this storage has just removed, so the other
    /// processes' indexes drop them (a removal listed after it happened is read as a removal).
    func journalRemovals(_ names: [String], _ state: inout State) {
        guard journal != nil, !names.isEmpty else { return }
        var none: [CacheEvent] = []
        changingShared(names, in: &state, events: &none) { _ in }
    }

    /// An entry `name` the index says has expired at `seconds`: removed, unless, in a shared folder,
    /// another process stored or renewed it since. There the check runs under the journal's exclusive
    /// lock, after catching up, so no store of another process lands between it and the removal (a
    /// renewal by another process's read is written to the file without that lock; one landing in that
    /// moment is lost, as a read racing a removal is in one process). A file that cannot be opened now,
    /// or is not CacheKit's, is not removed. Returns the live entry as now indexed, or `nil`;
    /// `retiredHere` says whether this call removed it.
    func expire(
        _ name: String, at seconds: Double, state: inout State, retired: inout [String],
        events: inout [CacheEvent]
    ) -> (live: IndexEntry?, retiredHere: Bool) {
        guard journal != nil else {
            retireFile(name: name, state: &state, into: &retired)
            return (nil, true)
        }
        return changingShared([], in: &state, following: seconds, events: &events) { state in
            guard let current = state.index?.peek(name) else { return (nil, false) }
            if !current.expiration.isExpired(at: seconds) { return (current, false) }
            switch readIndexEntry(name: name) {
            case .entry(let onDisk, _) where !onDisk.expiration.isExpired(at: seconds):
                return (reindexed(name, as: onDisk, state: &state), false)
            case .unavailable:
                return (nil, false)
            case .skipped:
                // Gone, or not CacheKit's: out of the index, the file (if any) left alone.
                if let removed = state.index?.remove(name) { state.totalSize -= removed.payload.size }
                return (nil, false)
            case .entry, .damaged:
                retireFile(name: name, state: &state, into: &retired)
                return (nil, true)
            }
        }
    }

    /// In a shared folder, retires the file `name` that this storage found damaged or undecodable at
    /// `generation`, unless another process stored it again since (checked after catching up, under the
    /// journal's exclusive lock). Returns whether it was retired. Without sharing, the caller's check of
    /// the generation stands and the file is retired.
    func retireDamaged(
        _ name: String, generation: UInt64, at seconds: Double, state: inout State, retired: inout [String]
    ) -> Bool {
        var none: [CacheEvent] = []
        return changingShared([], in: &state, following: journal == nil ? nil : seconds, events: &none) {
            state in
            guard state.index?.peek(name)?.generation == generation else { return false }
            retireFile(name: name, state: &state, into: &retired)
            return true
        }
    }

    /// In a shared folder, an entry the index says has expired may have been renewed by another
    /// process's read (which writes the new deadline into the file) or stored again: the entry as its
    /// file now has it, indexed again, or `nil` when it has expired there too (or the folder is not
    /// shared).
    func renewedByAnotherProcess(_ name: String, at seconds: Double, state: inout State) -> IndexEntry? {
        guard journal != nil, state.index?.peek(name) != nil,
            case .entry(let onDisk, _) = readIndexEntry(name: name), !onDisk.expiration.isExpired(at: seconds)
        else { return nil }
        return reindexed(name, as: onDisk, state: &state)
    }

    /// Indexes `name` with what its file says now (`onDisk`), with a foreign generation: maybe another
    /// file than the one indexed.
    private func reindexed(_ name: String, as onDisk: IndexEntry, state: inout State) -> IndexEntry? {
        guard var entry = state.index?.peek(name) else { return nil }
        state.nextGeneration &+= 1
        state.totalSize += onDisk.size - entry.size
        entry.size = onDisk.size
        entry.expiration = onDisk.expiration
        entry.generation = Self.foreignGeneration | state.nextGeneration
        state.index?.insert(entry, forKey: name)
        return entry
    }
}

extension DiskIndexEntry {
    /// The bit a foreign generation (an entry learned of from the folder) carries.
    static let foreignBit: UInt64 = 1 << 63

    /// The generation as stores of this process compare it: 0 for an entry learned of from the folder
    /// (another process's), so a store under way here still lands over it.
    var storeOrder: UInt64 {
        generation & Self.foreignBit == 0 ? generation : 0
    }
}
