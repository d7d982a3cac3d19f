import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension DiskStorage {
    /// Builds the index from the directory once, removing expired entries, damaged CacheKit files and
    /// stale temporary files on the way. Returns false when the directory cannot be read (reads then
    /// read their entry's file, and the next call tries again).
    ///
    /// Under the lock: readers arriving meanwhile wait for it, except reads while a background build
    /// runs, which read their entry's own file (`DiskStorage+BackgroundIndex.swift`). `seconds` is the
    /// caller's time, read before locking (the clock is the user's code).
    /// In a shared folder, an index that exists is first brought up to date with other processes'
    /// changes (`DiskStorage+Sharing.swift`).
    func ensureIndex(_ state: inout State, at seconds: Double, events: inout [CacheEvent]) -> Bool {
        if state.index != nil {
            guard journal != nil else { return true }
            followOtherProcesses(&state, at: seconds, events: &events)
            return state.index != nil
        }
        guard let scan = scanDirectory(at: seconds, journalMark: currentMark(&state)) else { return false }
        install(scan, into: &state, at: seconds, events: &events)
        return true
    }

    /// Removes the expired and damaged files `scan` found, but the expired ones a read before the index
    /// is still reading, which join the live ones.
    private func removeDoomedFiles(
        _ scan: inout DirectoryScan, state: inout State, events: inout [CacheEvent]
    ) {
        for item in scan.expired {
            if state.readingBeforeIndex[item.name] != nil {
                scan.live.append(item)
                continue
            }
            try? POSIXFile.remove(path(of: item.name))
            state.statistics.expirations += 1
            if configuration.onEvent != nil {
                events.append(.expired(.disk, key: item.entry.key ?? item.name))
            }
        }
        for name in scan.damaged { try? POSIXFile.remove(path(of: name)) }
    }

    /// Reads `names`' trailers again into `scan`, in place of what it found for them.
    private func rescan(_ names: Set<String>, at seconds: Double, in scan: inout DirectoryScan) {
        scan.live.removeAll { names.contains($0.name) }
        scan.expired.removeAll { names.contains($0.name) }
        scan.damaged.removeAll { names.contains($0) }
        scan.unreadable.removeAll { names.contains($0) }
        for name in names { scan.add(name, readIndexEntry(name: name), at: seconds) }
    }

    /// What listing the folder found, before any entry is changed.
    struct DirectoryScan {
        var live: [(name: String, entry: IndexEntry, lastAccess: Double)] = []
        var expired: [(name: String, entry: IndexEntry, lastAccess: Double)] = []
        var damaged: [String] = []
        var unreadable: [String] = []
        /// In a shared folder, the journal's header before listing: changes listed after it are read
        /// again on the next access.
        var journalMark: SharedJournal.Mark?

        /// Sorts `name` into the scan by its trailer, read as `read`, as it stands at `seconds`.
        mutating func add(_ name: String, _ read: IndexRead, at seconds: Double) {
            switch read {
            case .entry(let entry, let lastAccess):
                if entry.expiration.isExpired(at: seconds) {
                    expired.append((name, entry, lastAccess))
                } else {
                    live.append((name, entry, lastAccess))
                }
            case .damaged: damaged.append(name)
            case .unavailable: unreadable.append(name)
            case .skipped: break
            }
        }
    }

    /// Lists the folder and reads each entry file's trailer. It removes only stale temporary files (a
    /// crashed store's, never one being written), so it may run outside the lock; `nil` when the folder
    /// cannot be listed. In a shared folder, `journalMark` is the journal's header read before listing
    /// (``currentMark(_:)``, under the lock): changes listed after it are read again on the next access.
    func scanDirectory(at seconds: Double, journalMark: SharedJournal.Mark?) -> DirectoryScan? {
        guard !hooks.withLock({ $0.listingFails }),
            let names = try? FileManager.default.contentsOfDirectory(atPath: directoryPath)
        else {
            return nil
        }
        var scan = DirectoryScan(journalMark: journalMark)
        scan.live.reserveCapacity(names.count)
        for name in names {
            if TemporaryFile.isOurs(name) {
                // A store that crashed between writing and renaming, or another storage's store in flight.
                if TemporaryFile.isStale(path(of: name)) { try? POSIXFile.remove(path(of: name)) }
                continue
            }
            guard EntryFile.isEntryName(name.utf8) else { continue }
            scan.add(name, readIndexEntry(name: name), at: seconds)
        }
        return scan
    }

    /// Makes `scan` the index, under the lock, with no index yet: removes the expired entries (the sweep
    /// on open) and damaged files it found, then applies the renewals of reads served before the index.
    /// No store or remove began since the scan (each needs the index, or counts in `changes`, which a
    /// background build checks), so the files it removes are the ones it read. A file a read
    /// renewed before the index is read again here: the scan may have read its trailer as the read
    /// rewrote it. An expired file that a read before the index is still reading is indexed, not removed:
    /// that read began while it was live, and settles it (renews it, or leaves it to expire on its next
    /// use).
    ///
    /// `generation` is what every listed entry gets: 0 for the first index (a store or a read before the
    /// index tells its files from the listed ones by it), a new one when a shared folder is listed again,
    /// so a read of this process still under way on a file listed before never takes a new file for it.
    func install(
        _ scan: DirectoryScan, into state: inout State, at seconds: Double, events: inout [CacheEvent],
        generation: UInt64 = 0
    ) {
        var scan = scan
        if !state.earlyRenewals.isEmpty { rescan(Set(state.earlyRenewals.keys), at: seconds, in: &scan) }
        state.indexBuilds += 1
        if journal == nil {
            removeDoomedFiles(&scan, state: &state, events: &events)
        } else {
            // In a shared folder, another process may have stored one of these again since the listing,
            // and removing many would hold the journal's lock long: expired entries are indexed, for a
            // read or the sweep to remove one at a time after checking its file (`expire`), and damaged
            // files are remembered as unreadable ones are: a lookup of their key reads them again and
            // removes them under the lock (`retryUnreadable`).
            scan.live += scan.expired
            scan.expired = []
            state.unreadable.formUnion(scan.damaged)
        }
        state.unreadable.formUnion(scan.unreadable)
        var index = ClockTable<String, IndexEntry>()
        var total = 0
        for item in scan.live.sorted(by: { $0.lastAccess < $1.lastAccess }) {
            var entry = item.entry
            entry.generation = generation
            index.insert(entry, forKey: item.name)
            total += item.entry.size
        }
        for (name, renewed) in state.earlyRenewals {
            guard var entry = index.peek(name) else { continue }
            if let renewed {
                entry.expiration = renewed
                index.insert(entry, forKey: name)
            }
            _ = index.touch(name)
        }
        state.earlyRenewals = [:]
        state.index = index
        state.totalSize = total
        state.journalSeen = scan.journalMark
    }

    /// ``ensureIndex(_:at:events:)``, then, when `name` could not be opened while the index was built (a
    /// protected file while the device was locked, no descriptors left), tries that one file again, so
    /// such an entry is found, renewed or removed by key as soon as it can be opened.
    func ensureIndex(
        _ state: inout State, at seconds: Double, events: inout [CacheEvent], lookingUp name: String
    ) -> Bool {
        guard ensureIndex(&state, at: seconds, events: &events) else { return false }
        guard state.unreadable.contains(name) else { return true }
        // In a shared folder, read and settled under the journal's exclusive lock, so no other process
        // stores the file between the read and a removal.
        var none: [CacheEvent] = []
        let removed = changingShared([], in: &state, events: &none) { state in
            retryUnreadable(name, at: seconds, state: &state, events: &events)
        }
        if removed { journalRemovals([name], &state) }
        return true
    }

    /// Reads the entry file `name`, which could not be opened when the index was built, again: indexed
    /// when live, removed when expired or damaged, forgotten when not CacheKit's. Returns whether it
    /// removed the file.
    private func retryUnreadable(
        _ name: String, at seconds: Double, state: inout State, events: inout [CacheEvent]
    ) -> Bool {
        switch readIndexEntry(name: name) {
        case .entry(let entry, _):
            state.unreadable.remove(name)
            if entry.expiration.isExpired(at: seconds) {
                try? POSIXFile.remove(path(of: name))
                state.statistics.expirations += 1
                if configuration.onEvent != nil { events.append(.expired(.disk, key: entry.key ?? name)) }
                return true
            } else if state.index?.peek(name) == nil {
                state.index?.insert(entry, forKey: name)
                state.totalSize += entry.size
            }
        case .damaged:
            state.unreadable.remove(name)
            try? POSIXFile.remove(path(of: name))
            return true
        case .skipped:
            state.unreadable.remove(name)
        case .unavailable:
            break
        }
        return false
    }

    enum IndexRead {
        case entry(IndexEntry, lastAccess: Double)
        /// Could not be opened now (a protected file while the device is locked, out of descriptors or
        /// memory): remembered, and tried again when its key is looked up.
        case unavailable
        /// A CacheKit file that is truncated, of an older format or otherwise unusable: removed.
        case damaged
        /// Not CacheKit's: no trailer, unreadable, a pipe, device, socket, directory or symbolic link under
        /// an entry's name, or a file larger than this storage's size limit. Skipped and left alone.
        case skipped
    }

    func readIndexEntry(name: String) -> IndexRead {
        // Larger than this storage ever writes: maybe another storage's entry; left alone.
        let read = withTrailer(
            of: name, sizeLimit: configuration.sizeLimit, unavailable: IndexRead.unavailable
        ) {
            descriptor, size, modified, check in
            switch check {
            case .foreign:
                return IndexRead.skipped
            case .damaged:
                return .damaged
            case .entry(let trailer):
                var key: String?
                if configuration.onEvent != nil {
                    guard let stored = EntryFile.readKey(descriptor, trailer: trailer) else {
                        return .damaged
                    }
                    key = stored
                }
                let entry = IndexEntry(size: size, expiration: trailer.expiration, generation: 0, key: key)
                return .entry(entry, lastAccess: modified)
            }
        }
        return read ?? .skipped
    }

    /// Whether the entry file `name` is this storage's to remove: it carries CacheKit's trailer, or it
    /// cannot be opened now to tell (a protected file on a locked device). False when it is gone.
    func isOwnFile(_ name: String) -> Bool {
        withTrailer(of: name, sizeLimit: .max, unavailable: true) { _, _, _, check in check != .foreign }
            ?? false
    }

    /// The files `removeAll` may delete: entry-named files carrying CacheKit's trailer, and stale
    /// temporary files.
    /// - Throws: The failure to list the folder.
    func ownFiles() throws(POSIXFile.Failure) -> [String] {
        if hooks.withLock({ $0.listingFails }) { throw POSIXFile.Failure(code: EMFILE) }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directoryPath)
        } catch {
            throw POSIXFile.Failure(code: Self.code(of: error))
        }
        return names.filter { name in
            if TemporaryFile.isOurs(name) { return TemporaryFile.isStale(path(of: name)) }
            guard EntryFile.isEntryName(name.utf8) else { return false }
            return withTrailer(of: name, sizeLimit: .max) { _, _, _, check in check != .foreign } ?? false
        }
    }

    /// Opens the regular file `name` (no links, no blocking), reads its last ``EntryFile/trailerSize``
    /// bytes and hands the descriptor, size, modification time and what the trailer says to `body`;
    /// `nil` when it is not a regular file of at least a trailer and at most `sizeLimit` bytes, or cannot
    /// be read.
    private func withTrailer<T>(
        of name: String, sizeLimit: Int, unavailable: T? = nil,
        _ body: (_ descriptor: Int32, _ size: Int, _ modified: Double, EntryFile.TrailerCheck) -> T
    ) -> T? {
        let descriptor: Int32
        do throws(POSIXFile.Failure) {
            if let code = hooks.withLock({ $0.openFailure })?(name) { throw POSIXFile.Failure(code: code) }
            descriptor = try POSIXFile.openForReading(path(of: name), writable: false)
        } catch {
            return Self.mayOpenLater(error.code) ? unavailable : nil
        }
        defer { close(descriptor) }
        guard let status = try? POSIXFile.status(descriptor), status.isRegularFile,
            status.size <= sizeLimit, status.size >= EntryFile.trailerSize,
            let bytes = try? POSIXFile.read(
                descriptor, count: EntryFile.trailerSize, at: status.size - EntryFile.trailerSize)
        else { return nil }
        return body(descriptor, status.size, status.modified, EntryFile.check(bytes, fileSize: status.size))
    }
}

extension DiskStorage {
    /// Whether an open that failed with `code` may succeed later: data protection while the device is
    /// locked (`EPERM`, or `EACCES`), or a shortage of descriptors, memory or I/O.
    static func mayOpenLater(_ code: Int32) -> Bool {
        [EPERM, EACCES, EMFILE, ENFILE, ENOMEM, EIO, EAGAIN, EINTR].contains(code)
    }
}

/// The temporary files stores write before renaming them into place.
enum TemporaryFile {
    static let prefix = ".tmp-"
    /// How old a temporary file must be before a storage treats it as left behind by a crash. Judged by
    /// the real time, not a storage's clock: it is about processes, not entries.
    static let staleAge: Double = 60

    /// Whether `name` has the shape of CacheKit's temporary names: the prefix, an entry's 32 hex
    /// characters, then `-` and more. Another program's `.tmp-` file is not touched.
    static func isOurs(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let start = prefix.utf8.count
        guard name.hasPrefix(prefix), bytes.count > start + 33, bytes[start + 32] == UInt8(ascii: "-") else {
            return false
        }
        return EntryFile.isEntryName(bytes[start..<start + 32])
    }

    /// Whether the temporary file at `path` is a regular file last written more than ``staleAge`` ago.
    static func isStale(_ path: String, now: Double = Date().timeIntervalSince1970) -> Bool {
        guard let status = POSIXFile.linkStatus(path), status.isRegularFile else { return false }
        return now - status.modified > staleAge
    }
}
