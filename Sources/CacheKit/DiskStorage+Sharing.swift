import Foundation

// A folder shared across processes (`Configuration.sharedAcrossProcesses`): each storage follows the
// others' changes through the folder's journal (`Internal/SharedJournal.swift`). Everything here runs
// under the storage's own lock; the journal's `flock` is only ever taken inside it, and held only across
// a few system calls, never while user code runs.
extension DiskStorage {
    /// Brings the index up to date with what other processes changed since this storage last looked:
    /// one `pread` of the journal's header when nothing changed; otherwise the trailers of the names
    /// listed since, or the whole folder when a new epoch began. Under the storage's lock, with an index.
    func followOtherProcesses(_ state: inout State, at seconds: Double, events: inout [CacheEvent]) {
        guard let journal, state.index != nil else { return }
        if let mark = journal.mark(), mark == state.journalSeen { return }
        let caughtUp =
            state.holdingJournal
            ? catchUp(journal, &state)
            : journal.withLock(exclusive: false) { catchUp(journal, &state) }
        guard !caughtUp else { return }
        // A new epoch (another process's `removeAll`, a full journal), or a header that is not ours:
        // list the folder again. A header not ours is replaced first, so the next access catches up.
        if journal.mark() == nil {
            if state.holdingJournal {
                journal.startEpoch()
            } else {
                journal.withLock(exclusive: true) { if journal.mark() == nil { journal.startEpoch() } }
            }
        }
        state.index = nil
        state.totalSize = 0
        state.journalSeen = nil
        // Until the folder can be listed again, reads are misses and the next access tries again.
        guard let scan = scanDirectory(at: seconds) else { return }
        state.nextGeneration &+= 1
        install(scan, into: &state, at: seconds, events: &events, generation: state.nextGeneration)
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

    /// Indexes `name` as its file is now: a new generation when it holds an entry (so work of this
    /// process on the file it replaced never applies to it), out of the index when it is gone or not ours.
    private func reindex(_ name: String, _ state: inout State) {
        switch readIndexEntry(name: name) {
        case .entry(var entry, _):
            state.nextGeneration &+= 1
            entry.generation = state.nextGeneration
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
    /// up itself. Without sharing it just runs `change`.
    func changingShared<T, E: Error>(
        _ names: [String], in state: inout State, following seconds: Double? = nil,
        events: inout [CacheEvent], _ change: (inout State) throws(E) -> T
    ) throws(E) -> T {
        guard let journal else { return try change(&state) }
        let outermost = !state.holdingJournal
        if outermost {
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
        if !names.isEmpty, let appended = journal.append(names), appended.before == state.journalSeen {
            state.journalSeen = appended.after
        }
        return try change(&state)
    }

    /// In a shared folder, an entry the index says has expired may have been renewed by another
    /// process's read, which wrote the new deadline into the file: the entry as renewed, indexed again,
    /// or `nil` when it has expired there too (or the folder is not shared).
    func renewedByAnotherProcess(_ name: String, at seconds: Double, state: inout State) -> IndexEntry? {
        guard journal != nil, var entry = state.index?.peek(name),
            case .entry(let onDisk, _) = readIndexEntry(name: name),
            !onDisk.expiration.isExpired(at: seconds), onDisk.size == entry.size
        else { return nil }
        entry.expiration = onDisk.expiration
        state.index?.insert(entry, forKey: name)
        return entry
    }
}
