import Foundation

/// A thread-safe on-disk cache: one file per entry in a directory, with expiration that survives
/// restarts, least-recently-used trimming to count and size limits, and atomic writes.
///
/// ```swift
/// let posters = try DiskStorage<Data>(configuration: .init(name: "posters"))
/// try posters.store(imageData, forKey: url.absoluteString)
/// let cached = posters.value(forKey: url.absoluteString)
/// ```
///
/// - File names are a stable hash of the key, so any key (slashes, `..`, emoji, 10 KB long) stays inside
///   the directory; the key itself is stored in the file and checked on read, and a checksum of the
///   payload catches damaged bytes.
/// - An index of every entry (size, expiration, recency) is built from the directory on first use (in the
///   background when that is a read, which reads its entry's own file meanwhile); stores never list the
///   directory. Limits are enforced on every store in amortised O(1).
/// - Reading and writing file contents happens outside the storage's lock: a 1 MB store of one key does
///   not hold up a hit on another. Only the index, and renaming or setting aside an entry's file, are
///   done under the lock (and the one-time index build), so the index matches the directory. Of the
///   stores of one key that succeed, the one called last wins, whichever finishes writing first.
/// - A corrupt CacheKit file is a miss that removes it; reads never throw. A file without CacheKit's
///   trailer is never removed (a store of the key whose name it occupies does replace it).
/// - All file work is synchronous, except the awaited forms of `entry`, `store`, `removeValue` and
///   `removeAll`, which run on CacheKit's disk queue; call the rest off the main thread, or use ``Cache``,
///   which does.
/// - One process per directory: two processes sharing one directory do not see each other's index.
public final class DiskStorage<Value: DataConvertible & Sendable>: Sendable {
    struct IndexEntry: Sendable {
        var size: Int
        var expiration: StoredExpiration
        /// Changes on every store, so work done outside the lock applies only to the file it read.
        var generation: UInt64
        /// The user's key, kept when events are reported (they name it); `nil` otherwise.
        var key: String?
    }

    struct State: Sendable {
        var index: ClockTable<String, IndexEntry>?
        var totalSize = 0
        var statistics = CacheStatistics()
        var nextGeneration: UInt64 = 0
        /// Per file name with stores still writing: how many, and the newest generation whose store
        /// committed or whose remove (or eviction) happened meanwhile. A store renames its file into
        /// place only if its generation is above that floor, so of the stores that succeed the one
        /// called last wins, and a remove called after a store began wins over it.
        var writing: [String: (stores: Int, floor: UInt64)] = [:]
        /// Stores that began before the last `removeAll` never rename their file into place.
        var clearedBelow: UInt64 = 0
        /// How many indexes were built from a listing and installed; stays 1 however many stores.
        var indexBuilds = 0
        /// Entry files that could not be opened when the index was built; tried again by key.
        var unreadable: Set<String> = []
        /// Whether a background build of the index runs (started by the first read).
        var buildingInBackground = false
        /// Renewals by reads served from their file before the index existed: the renewed expiration
        /// (`nil` when the read did not change it), applied when the index is installed.
        var earlyRenewals: [String: StoredExpiration?] = [:]
    }

    /// The configuration the storage was created with.
    public let configuration: Configuration
    /// The folder holding the entries.
    public let directoryURL: URL
    let directoryPath: String
    let clock: CacheClock
    let state = Locked(State())
    private let sweeper = Locked<SweepTimer?>(nil)
    /// A test hook run by a store between writing its temporary file and renaming it; `nil` outside tests.
    private let beforeRename = Locked<(@Sendable (String) -> Void)?>(nil)
    /// A test hook run by a read between finding its entry in the index and reading the file.
    let beforeReadingFile = Locked<(@Sendable (String) -> Void)?>(nil)
    /// A test hook that makes opening an entry file for the index fail with an errno, as a locked device
    /// does for a protected file (root, who runs CI, can open any file); `nil` outside tests.
    let openFailure = Locked<(@Sendable (String) -> Int32?)?>(nil)
    /// A test hook that makes listing the folder fail, as running out of descriptors does; false outside
    /// tests.
    let listingFails = Locked(false)
    /// A test hook run by a background index build between its scan and installing the index; `nil`
    /// outside tests.
    let beforeInstallingIndex = Locked<(@Sendable () -> Void)?>(nil)

    /// Creates the storage and its directory. The index is built on first use, and expired entries
    /// found then are removed: in the background when the first use is a read (which reads its entry's
    /// own file meanwhile), on the caller's thread otherwise.
    /// - Parameters:
    ///   - configuration: Location, limits and default expiration; see ``Configuration``.
    ///   - clock: Where the current time comes from; ``CacheClock/system`` by default.
    /// - Throws: ``CacheError`` with operation `open` when the directory cannot be created.
    public init(configuration: Configuration = Configuration(), clock: CacheClock = .system)
        throws(CacheError)
    {
        self.configuration = configuration.clamped
        self.clock = clock
        let directory = configuration.directory ?? Self.defaultDirectory(named: configuration.name)
        self.directoryURL = directory
        self.directoryPath = directory.path
        try Self.prepare(directory, protection: configuration.fileProtection)
        if let interval = configuration.sweepInterval, interval.isFinite, interval <= 365 * 86_400 {
            sweeper.withLock {
                $0 = SweepTimer(interval: interval, label: "CacheKit.DiskStorage.sweep") {
                    [weak self] in self?.removeExpired()
                }
            }
        }
    }

    /// Creates a storage that keeps its entries in `directory`, created if needed, with the default limits
    /// and expiration: the one call for "this folder".
    ///
    /// ```swift
    /// let posters = try DiskStorage<Data>(directory: appSupport.appendingPathComponent("Posters"))
    /// ```
    /// - Parameters:
    ///   - directory: The folder holding the entries.
    ///   - clock: Where the current time comes from; ``CacheClock/system`` by default.
    /// - Throws: ``CacheError`` with operation `open` when the directory cannot be created.
    public convenience init(directory: URL, clock: CacheClock = .system) throws(CacheError) {
        try self.init(configuration: Configuration(directory: directory), clock: clock)
    }

    /// The file that holds, or would hold, the entry for `key`. The file starts with the value's bytes,
    /// so a cached image can be opened by path.
    /// - Parameter key: The entry's key.
    /// - Returns: A URL inside ``directoryURL``, whatever the key contains.
    public func fileURL(forKey key: String) -> URL {
        directoryURL.appendingPathComponent(StableHash.hex(key), isDirectory: false)
    }

    // MARK: - Reading

    /// The live value for `key`, or `nil` on a miss.
    ///
    /// An expired entry, or a CacheKit file that is corrupt, fails its checksum, or is not decodable as
    /// `Value`, is removed and reported as a miss; this never throws.
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
            let removed = state.withLock { state -> Bool in
                // The read counted a hit; the caller gets a miss.
                state.statistics.hits -= 1
                state.statistics.misses += 1
                // A file read before the index exists is left to it, unrenewed; a newer file is kept.
                state.earlyRenewals[name] = nil
                guard state.index?.peek(name)?.generation == generation else { return false }
                retireFile(name: name, state: &state, into: &retired)
                return true
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
    /// expiration and statistics are unchanged.
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
        }
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
            if entry.expiration.isExpired(at: seconds) {
                retireFile(name: name, state: &state, into: &retired)
                state.statistics.misses += 1
                state.statistics.expirations += 1
                events.append(.expired(.disk, key: key))
                return nil
            }
            return entry
        }
        if early {
            return readBeforeIndex(name: name, key: key, extending: extending, now: now, events: &events)
        }
        guard let found else {
            events.append(.miss(.disk, key: key))
            return nil
        }
        if let hook = beforeReadingFile.withLock({ $0 }) { hook(key) }
        // Outside the lock: open, check and read the file. A store that renamed a newer file into place
        // meanwhile is read instead (it is the newest value); its generation tells us below.
        let outcome = FileRead(
            path: path, key: key, sizeLimit: configuration.sizeLimit,
            injectedFailure: openFailure.withLock({ $0 })?(name))
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
                if unchanged {
                    retireFile(name: name, state: &state, into: &retired)
                    events.append(.removedCorruptEntry(key: key, path: path, reason: reason))
                }
            }
            state.statistics.misses += 1
            events.append(.miss(.disk, key: key))
            return nil
        }
    }

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
        if let hook = beforeRename.withLock({ $0 }) { hook(key) }
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
            guard generation > state.clearedBelow, generation > (state.writing[name]?.floor ?? 0),
                generation > (state.index?.peek(name)?.generation ?? 0)
            else { return nil }
            state.writing[name]?.floor = generation
            do throws(POSIXFile.Failure) {
                try POSIXFile.move(temporary, to: path)
            } catch {
                return error
            }
            if let replaced = state.index?.insert(entry, forKey: name) { state.totalSize -= replaced.size }
            state.totalSize += file.count
            state.unreadable.remove(name)
            return nil
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
        trimIfNeeded(keeping: name, events: &events)
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
    private func trimIfNeeded(keeping kept: String, events: inout [CacheEvent]) {
        let countTarget = Self.fraction(configuration.trimRatio, of: configuration.countLimit)
        let sizeTarget = Self.fraction(configuration.trimRatio, of: configuration.sizeLimit)
        var trimming = false
        while true {
            var retired: [String] = []
            defer { discard(retired) }
            let evicted = state.withLock { state -> Bool in
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
            if !evicted { return }
        }
    }

    /// `ratio` (from 0 to 1) of `limit`, rounded down. `Double(Int.max)` rounds up past `Int.max`, so the
    /// product is checked before it becomes an `Int` again.
    private static func fraction(_ ratio: Double, of limit: Int) -> Int {
        let product = Double(limit) * ratio
        return product >= Double(Int.max) ? Int.max : Int(product)
    }

    /// A temporary file name no other storage or process picks: the entry's name, this process, this
    /// store's generation and 64 random bits.
    private static func temporaryPath(in directory: String, for name: String, generation: UInt64) -> String {
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        return directory + "/" + TemporaryFile.prefix + name + "-" + String(getpid()) + "-"
            + String(generation)
            + "-" + random
    }

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
            if let removed = state.index?.remove(name) { state.totalSize -= removed.payload.size }
            if configuration.onEvent != nil { events.append(.removed(.disk, key: key)) }
        }
    }

    /// Removes every entry, reporting ``CacheEvent/removed(_:key:)`` for each indexed one, and any stale
    /// temporary file. Files the cache did not write, and other storages' temporary files still being
    /// written, are left alone; stores still writing when this is called are discarded. In async code the
    /// awaited form runs on CacheKit's disk queue.
    /// - Throws: ``CacheError`` with operation `removeAll` when a file cannot be deleted; the entries
    ///   removed before it stay removed.
    public func removeAll() throws(CacheError) {
        var events: [CacheEvent] = []
        defer { emit(events) }
        let seconds = clock.now().timeIntervalSince1970
        let (removed, unreadable) = state.withLock { state -> (ClockTable<String, IndexEntry>, Set<String>) in
            _ = ensureIndex(&state, at: seconds, events: &events)
            state.nextGeneration &+= 1
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
        let listed = ownFiles()
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
                guard let entry = state.index?.peek(name), entry.expiration.isExpired(at: seconds) else {
                    return
                }
                retireFile(name: name, state: &state, into: &retired)
                state.statistics.expirations += 1
                removed += 1
                if configuration.onEvent != nil { events.append(.expired(.disk, key: entry.key ?? name)) }
            }
        }
        return removed
    }

    // MARK: - Inspecting

    /// The number of entries indexed, expired ones not yet removed included.
    public var count: Int {
        var events: [CacheEvent] = []
        defer { emit(events) }
        let seconds = clock.now().timeIntervalSince1970
        return state.withLock { state in
            _ = ensureIndex(&state, at: seconds, events: &events)
            return state.index?.count ?? 0
        }
    }

    /// The total size in bytes of the entries' files.
    public var totalSize: Int {
        var events: [CacheEvent] = []
        defer { emit(events) }
        let seconds = clock.now().timeIntervalSince1970
        return state.withLock { state in
            _ = ensureIndex(&state, at: seconds, events: &events)
            return state.totalSize
        }
    }

    /// Hits, misses, evictions and expirations so far.
    public var statistics: CacheStatistics {
        state.withLock { $0.statistics }
    }

    /// Runs `hook` in every store between writing its temporary file and renaming it into place, so a test
    /// can hold a store in that window.
    func setBeforeRename(_ hook: (@Sendable (String) -> Void)?) {
        beforeRename.withLock { $0 = hook }
    }

    /// Runs `hook` in every read between finding its entry in the index and reading the file, so a test
    /// can hold a read in that window.
    func setBeforeReadingFile(_ hook: (@Sendable (String) -> Void)?) {
        beforeReadingFile.withLock { $0 = hook }
    }

    /// How many indexes have been built from a listing of the directory and installed (for tests).
    var indexBuildCount: Int {
        state.withLock { $0.indexBuilds }
    }

    /// Whether the index is installed (for tests).
    var hasIndex: Bool {
        state.withLock { $0.index != nil }
    }

    /// Whether a background build of the index runs (for tests).
    var isBuildingInBackground: Bool {
        state.withLock { $0.buildingInBackground }
    }

    // MARK: - Helpers

    /// Takes the entry file `name` out of the directory and the index, under the lock, so a store cannot
    /// rename a new file into place between the two. The file is only renamed to a temporary name here
    /// (a directory operation); its data is freed when the caller deletes it, after unlocking: deleting a
    /// 1 MB file under the lock would hold up every reader.
    func retireFile(name: String, state: inout State, into retired: inout [String]) {
        let trash = Self.temporaryPath(in: directoryPath, for: name, generation: 0)
        do throws(POSIXFile.Failure) {
            try POSIXFile.move(path(of: name), to: trash)
            retired.append(trash)
        } catch {
            try? POSIXFile.remove(path(of: name))
        }
        if let removed = state.index?.remove(name) {
            state.totalSize -= removed.payload.size
            Self.raiseFloor(name, to: removed.payload.generation, state: &state)
        }
    }

    /// Deletes files ``retireFile(name:state:into:)`` set aside; called after unlocking.
    func discard(_ retired: [String]) {
        for path in retired { try? POSIXFile.remove(path) }
    }

    func path(of name: String) -> String {
        directoryPath + "/" + name
    }

    func emit(_ events: [CacheEvent]) {
        guard let onEvent = configuration.onEvent else { return }
        for event in events { onEvent(event) }
    }
}
