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
    /// stale temporary files on the way. Returns false when the directory cannot be read (every read is
    /// then a miss, and the next call tries again).
    ///
    /// It runs under the lock, once, on first use: readers arriving meanwhile wait for it. `seconds` is
    /// the caller's time, read before locking (the clock is the user's code).
    func ensureIndex(_ state: inout State, at seconds: Double, events: inout [CacheEvent]) -> Bool {
        if state.index != nil { return true }
        state.indexBuilds += 1
        guard !listingFails.withLock({ $0 }),
            let names = try? FileManager.default.contentsOfDirectory(atPath: directoryPath)
        else {
            return false
        }
        var found: [(name: String, entry: IndexEntry, lastAccess: Double)] = []
        found.reserveCapacity(names.count)
        for name in names {
            if TemporaryFile.isOurs(name) {
                // A store that crashed between writing and renaming, or another storage's store in flight.
                if TemporaryFile.isStale(path(of: name)) { try? POSIXFile.remove(path(of: name)) }
                continue
            }
            guard EntryFile.isEntryName(name.utf8) else { continue }
            switch readIndexEntry(name: name) {
            case .entry(let entry, let lastAccess):
                if entry.expiration.isExpired(at: seconds) {
                    // The sweep on open.
                    try? POSIXFile.remove(path(of: name))
                    state.statistics.expirations += 1
                    if configuration.onEvent != nil { events.append(.expired(.disk, key: entry.key ?? name)) }
                } else {
                    found.append((name, entry, lastAccess))
                }
            case .damaged:
                try? POSIXFile.remove(path(of: name))
            case .unavailable:
                state.unreadable.insert(name)
            case .skipped:
                continue
            }
        }
        found.sort { $0.lastAccess < $1.lastAccess }
        var index = ClockTable<String, IndexEntry>()
        var total = 0
        for item in found {
            index.insert(item.entry, forKey: item.name)
            total += item.entry.size
        }
        state.index = index
        state.totalSize = total
        return true
    }

    /// ``ensureIndex(_:at:events:)``, then, when `name` could not be opened while the index was built (a
    /// protected file while the device was locked, no descriptors left), tries that one file again, so
    /// such an entry is found, renewed or removed by key as soon as it can be opened.
    func ensureIndex(
        _ state: inout State, at seconds: Double, events: inout [CacheEvent], lookingUp name: String
    ) -> Bool {
        guard ensureIndex(&state, at: seconds, events: &events) else { return false }
        guard state.unreadable.contains(name) else { return true }
        switch readIndexEntry(name: name) {
        case .entry(let entry, _):
            state.unreadable.remove(name)
            if entry.expiration.isExpired(at: seconds) {
                try? POSIXFile.remove(path(of: name))
                state.statistics.expirations += 1
                if configuration.onEvent != nil { events.append(.expired(.disk, key: entry.key ?? name)) }
            } else if state.index?.peek(name) == nil {
                state.index?.insert(entry, forKey: name)
                state.totalSize += entry.size
            }
        case .damaged:
            state.unreadable.remove(name)
            try? POSIXFile.remove(path(of: name))
        case .skipped:
            state.unreadable.remove(name)
        case .unavailable:
            break
        }
        return true
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

    private func readIndexEntry(name: String) -> IndexRead {
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
    func ownFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directoryPath)) ?? []
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
            if let code = openFailure.withLock({ $0 })?(name) { throw POSIXFile.Failure(code: code) }
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

/// One entry file opened and read outside the storage's lock.
struct FileRead {
    enum Result {
        case entry(payload: Data, expiration: StoredExpiration)
        /// A valid entry of another key with the same file name.
        case otherKey
        /// Not CacheKit's (see ``DiskStorage/IndexRead/skipped``), or gone.
        case notOurs
        /// CacheKit's, and damaged: `reason` says how.
        case damaged(reason: String)
        /// Could not be read now (refused, as a protected file is while the device is locked; out of
        /// descriptors or memory; an I/O error): not judged either way.
        case unavailable
    }

    let result: Result
    /// Open when the file was a regular file; ``close()`` closes it.
    let descriptor: Int32?
    /// Where the deadline is in the file, for writing a renewal back.
    let deadlineOffset: Int

    init(path: String, key: String, sizeLimit: Int, injectedFailure: Int32? = nil) {
        var opened: Int32?
        var failure: Int32 = 0
        do throws(POSIXFile.Failure) {
            if let injectedFailure { throw POSIXFile.Failure(code: injectedFailure) }
            opened = try POSIXFile.openForReading(path, writable: true)
        } catch {
            failure = error.code
            // A read-only file or file system: read it, and skip writing the renewal back.
            if injectedFailure == nil, error.code == EACCES || error.code == EROFS {
                do throws(POSIXFile.Failure) {
                    opened = try POSIXFile.openForReading(path, writable: false)
                } catch {
                    failure = error.code
                }
            }
        }
        guard let descriptor = opened else {
            // Gone, a link, a directory or a device without a reader: not an entry. Refused (a protected
            // file while the device is locked: EPERM), or out of descriptors: may open later, so it is a
            // miss that stays indexed.
            let notAnEntry = [ENOENT, ELOOP, EISDIR, ENXIO, ENOTDIR].contains(failure)
            (result, self.descriptor, deadlineOffset) = (notAnEntry ? .notOurs : .unavailable, nil, 0)
            return
        }
        self.descriptor = descriptor
        guard let status = try? POSIXFile.status(descriptor), status.isRegularFile, status.size <= sizeLimit
        else {
            (result, deadlineOffset) = (.notOurs, 0)
            return
        }
        deadlineOffset = status.size - EntryFile.deadlineOffsetFromEnd
        let file: Data
        do throws(POSIXFile.Failure) {
            file = try POSIXFile.read(descriptor, count: status.size, at: 0)
        } catch {
            result = .unavailable
            return
        }
        switch EntryFile.decode(file) {
        case .foreign:
            result = .notOurs
        case .damaged:
            result = .damaged(reason: "its trailer or payload checksum does not match its bytes")
        case .entry(let storedKey, let payload, let trailer):
            result = storedKey == key ? .entry(payload: payload, expiration: trailer.expiration) : .otherKey
        }
    }

    func close() {
        if let descriptor { POSIXFile.closeDescriptor(descriptor) }
    }
}
