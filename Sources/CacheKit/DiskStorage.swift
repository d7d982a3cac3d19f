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
///   the directory; the key itself is stored in the file and checked on read.
/// - An index of every entry (size, expiration, recency) is built once from the directory, on first
///   use; stores never list the directory. Limits are enforced on every store in amortised O(1).
/// - A corrupt, truncated or unreadable file is a miss that removes the file; reads never throw.
/// - All file work is synchronous and serialised by a lock; call it off the main thread, or use
///   ``Cache``, which does.
/// - One process per directory: two processes sharing one directory do not see each other's index.
public final class DiskStorage<Value: DataConvertible>: Sendable {
    /// How a ``DiskStorage`` behaves. Every property has a default.
    public struct Configuration: Sendable {
        /// The cache's name: the folder created under the platform caches directory when ``directory``
        /// is `nil`. `"CacheKit"` by default.
        public var name: String
        /// The folder holding the entries, created if needed. `nil` (the default) means the platform
        /// caches directory (`~/Library/Caches` on Apple platforms, `$XDG_CACHE_HOME` or `~/.cache` on
        /// Linux) plus ``name``.
        public var directory: URL?
        /// The most entries kept. `Int.max` (no limit) by default; a negative value is 0.
        public var countLimit: Int
        /// The most bytes kept, counting whole files. 150 MB by default; a negative value is 0.
        public var sizeLimit: Int
        /// The expiration of an entry stored without one. 7 days by default.
        public var expiration: CacheExpiration
        /// When a limit is exceeded, least recently used entries are removed until the count and size
        /// are at most this fraction of their limits, so the next stores do not trim again at once.
        /// 0.8 by default; clamped to 0...1 when the storage is created (NaN means the default).
        public var trimRatio: Double
        /// Called after each ``CacheEvent``, outside the storage's lock. `nil` by default.
        public var onEvent: (@Sendable (CacheEvent) -> Void)?

        /// Creates a configuration.
        /// - Parameters:
        ///   - name: The folder name under the caches directory; `"CacheKit"` by default.
        ///   - directory: An explicit folder; `nil` (the default) for the caches directory plus `name`.
        ///   - countLimit: The most entries; no limit by default.
        ///   - sizeLimit: The most bytes; 150 MB by default.
        ///   - expiration: The default expiration; 7 days by default.
        ///   - trimRatio: The fraction of each limit to trim down to; 0.8 by default.
        ///   - onEvent: A hook for logging or metrics; `nil` by default.
        public init(
            name: String = "CacheKit",
            directory: URL? = nil,
            countLimit: Int = .max,
            sizeLimit: Int = 150 * 1024 * 1024,
            expiration: CacheExpiration = .days(7),
            trimRatio: Double = 0.8,
            onEvent: (@Sendable (CacheEvent) -> Void)? = nil
        ) {
            self.name = name
            self.directory = directory
            self.countLimit = countLimit
            self.sizeLimit = sizeLimit
            self.expiration = expiration
            self.trimRatio = trimRatio
            self.onEvent = onEvent
        }

        /// This configuration with every value in range, as a ``DiskStorage`` keeps it: negative limits
        /// are 0, and the trim ratio is clamped to 0...1 (NaN is the default, 0.8).
        var clamped: Configuration {
            var configuration = self
            configuration.countLimit = max(countLimit, 0)
            configuration.sizeLimit = max(sizeLimit, 0)
            configuration.trimRatio = trimRatio.isNaN ? 0.8 : min(max(trimRatio, 0), 1)
            return configuration
        }
    }

    private struct IndexEntry: Sendable {
        var size: Int
        var expiration: StoredExpiration
        /// Changes on every store, so a late decoding failure removes only the file it read.
        var generation: UInt64
    }

    private struct State: Sendable {
        var index: ClockTable<String, IndexEntry>?
        var totalSize = 0
        var statistics = CacheStatistics()
        var nextGeneration: UInt64 = 0
        /// How many times the directory was listed to build the index; stays 1 however many stores.
        var indexBuilds = 0
    }

    /// The configuration the storage was created with.
    public let configuration: Configuration
    /// The folder holding the entries.
    public let directoryURL: URL
    private let directoryPath: String
    private let clock: CacheClock
    private let state = Locked(State())

    /// Creates the storage and its directory. The index is built on first use.
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
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CacheError(
                operation: .open, key: nil, path: directory.path,
                reason: .fileSystem(code: Self.code(of: error), message: "\(error.localizedDescription)"))
        }
    }

    private static func defaultDirectory(named name: String) -> URL {
        let caches =
            FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return caches.appendingPathComponent(name, isDirectory: true)
    }

    private static func code(of error: any Error) -> Int32 {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        return Int32(truncatingIfNeeded: underlying?.code ?? (error as NSError).code)
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
    /// An expired entry, or a file that is corrupt, truncated, unreadable or not decodable as `Value`,
    /// is removed and reported as a miss; this never throws.
    /// - Parameters:
    ///   - key: The entry's key.
    ///   - extending: What this read does to the entry's expiration; ``ExpirationExtending/cacheTime``
    ///     by default.
    /// - Returns: The value, or `nil`.
    public func value(forKey key: String, extendingExpiration extending: ExpirationExtending = .cacheTime)
        -> Value?
    {
        let name = StableHash.hex(key)
        let now = clock.now()
        var events: [CacheEvent] = []
        let found = state.withLock { state in
            readPayload(name: name, key: key, extending: extending, now: now, state: &state, events: &events)
        }
        var result: Value?
        if let (payload, generation) = found {
            do {
                result = try Value.fromData(payload)
            } catch {
                state.withLock { state in
                    guard state.index?.peek(name)?.generation == generation else { return }
                    removeEntry(name: name, state: &state)
                    state.statistics.hits -= 1
                    state.statistics.misses += 1
                }
                events = [
                    .removedCorruptEntry(key: key, path: path(of: name), reason: "\(error)"),
                    .miss(.disk, key: key),
                ]
            }
        }
        emit(events)
        return result
    }

    /// Whether a live entry exists for `key`, judged from the index (the file is not read). Recency,
    /// expiration and statistics are unchanged.
    /// - Parameter key: The entry's key.
    /// - Returns: `true` when an unexpired entry is indexed for the key.
    public func contains(_ key: String) -> Bool {
        let name = StableHash.hex(key)
        let seconds = clock.now().timeIntervalSince1970
        return state.withLock { state in
            guard ensureIndex(&state), let entry = state.index?.peek(name) else { return false }
            return !entry.expiration.isExpired(at: seconds)
        }
    }

    /// Reads the file for `name` under the lock. Returns its payload and generation on a hit.
    private func readPayload(
        name: String, key: String, extending: ExpirationExtending, now: Date,
        state: inout State, events: inout [CacheEvent]
    ) -> (Data, UInt64)? {
        guard ensureIndex(&state), let position = state.index?.touch(name),
            let entry = state.index?.payload(at: position)
        else {
            state.statistics.misses += 1
            events.append(.miss(.disk, key: key))
            return nil
        }
        let seconds = now.timeIntervalSince1970
        if entry.expiration.isExpired(at: seconds) {
            removeEntry(name: name, state: &state)
            state.statistics.misses += 1
            state.statistics.expirations += 1
            events += [.expired(.disk, key: key), .miss(.disk, key: key)]
            return nil
        }
        let renewed = entry.expiration.extended(by: extending, now: now)
        let path = path(of: name)
        do throws(POSIXFile.Failure) {
            let descriptor = try POSIXFile.openForReading(path, writable: true)
            defer { close(descriptor) }
            let status = try POSIXFile.status(descriptor)
            // Something else took the entry's name (a pipe, a device), or a file larger than this storage
            // ever writes (reading a sparse 1 TB file whose trailer adds up would exhaust memory; it may
            // be another storage's entry, with a larger limit, in the same folder): a miss, neither read
            // nor deleted.
            guard status.isRegularFile, status.size <= configuration.sizeLimit else {
                if let removed = state.index?.remove(name) { state.totalSize -= removed.payload.size }
                state.statistics.misses += 1
                events.append(.miss(.disk, key: key))
                return nil
            }
            let file = try POSIXFile.read(descriptor, count: status.size, at: 0)
            if let decoded = EntryFile.decode(file) {
                guard decoded.key == key else {
                    // Another key with the same hash owns this file: a miss, and the file stays.
                    state.statistics.misses += 1
                    events.append(.miss(.disk, key: key))
                    return nil
                }
                if let renewed {
                    let offset = file.count - EntryFile.deadlineOffsetFromEnd
                    try POSIXFile.write(descriptor, EntryFile.encode(renewed), at: offset)
                    var renewedEntry = entry
                    renewedEntry.expiration = renewed
                    state.index?.insert(renewedEntry, forKey: name)
                }
                try? POSIXFile.setTimes(descriptor, to: seconds)
                state.statistics.hits += 1
                events.append(.hit(.disk, key: key))
                return (decoded.payload, entry.generation)
            }
            removeEntry(name: name, state: &state)
            events.append(.removedCorruptEntry(key: key, path: path, reason: "not a valid cache entry file"))
        } catch {
            removeEntry(name: name, state: &state)
            events.append(.removedCorruptEntry(key: key, path: path, reason: error.message))
        }
        state.statistics.misses += 1
        events.append(.miss(.disk, key: key))
        return nil
    }

    // MARK: - Writing

    /// Writes `value` for `key` atomically, replacing any earlier entry, then trims least recently used
    /// entries if a limit is exceeded.
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
        let file = EntryFile.encode(payload: payload, key: key, expiration: stored)
        var events: [CacheEvent] = []
        try state.withLock { state throws(CacheError) in
            _ = ensureIndex(&state)
            state.nextGeneration &+= 1
            let temporary = directoryPath + "/.tmp-" + name + "-" + String(state.nextGeneration)
            do throws(POSIXFile.Failure) {
                try POSIXFile.writeAtomically(
                    file, to: path, temporaryPath: temporary, modified: now.timeIntervalSince1970)
            } catch {
                throw CacheError(
                    operation: .store, key: key, path: path,
                    reason: .fileSystem(code: error.code, message: error.message))
            }
            let entry = IndexEntry(size: file.count, expiration: stored, generation: state.nextGeneration)
            if let replaced = state.index?.insert(entry, forKey: name) { state.totalSize -= replaced.size }
            state.totalSize += file.count
            trimIfNeeded(state: &state, events: &events)
        }
        emit(events)
    }

    /// Removes least recently used entries down to ``Configuration/trimRatio`` of the limits, when one
    /// is exceeded. Amortised O(1) per store: a trim frees room for many stores.
    private func trimIfNeeded(state: inout State, events: inout [CacheEvent]) {
        guard let count = state.index?.count,
            count > configuration.countLimit || state.totalSize > configuration.sizeLimit
        else { return }
        let countTarget = Self.fraction(configuration.trimRatio, of: configuration.countLimit)
        let sizeTarget = Self.fraction(configuration.trimRatio, of: configuration.sizeLimit)
        // Read the table through `state.index` each time: binding it to a local would keep a second
        // reference, and every removal would then copy the whole table.
        while (state.index?.count ?? 0) > countTarget || state.totalSize > sizeTarget,
            let oldest = state.index?.oldestEntry
        {
            removeEntry(name: oldest.key, state: &state)
            state.statistics.evictions += 1
            if configuration.onEvent != nil { events.append(.evicted(.disk, key: oldest.key)) }
        }
    }

    /// `ratio` (from 0 to 1) of `limit`, rounded down. `Double(Int.max)` rounds up past `Int.max`, so the
    /// product is checked before it becomes an `Int` again.
    private static func fraction(_ ratio: Double, of limit: Int) -> Int {
        let product = Double(limit) * ratio
        return product >= Double(Int.max) ? Int.max : Int(product)
    }

    // MARK: - Removing

    /// Removes the entry for `key`, if any.
    /// - Parameter key: The entry's key.
    /// - Throws: ``CacheError`` with operation `remove` when the file exists but cannot be deleted.
    public func removeValue(forKey key: String) throws(CacheError) {
        let name = StableHash.hex(key)
        try state.withLock { state throws(CacheError) in
            _ = ensureIndex(&state)
            do throws(POSIXFile.Failure) {
                try POSIXFile.remove(path(of: name))
            } catch {
                throw CacheError(
                    operation: .remove, key: key, path: path(of: name),
                    reason: .fileSystem(code: error.code, message: error.message))
            }
            if let removed = state.index?.remove(name) { state.totalSize -= removed.payload.size }
        }
    }

    /// Removes every entry, and any leftover temporary file, from the directory. Files the cache did
    /// not write are left alone.
    /// - Throws: ``CacheError`` with operation `removeAll` when a file cannot be deleted; the entries
    ///   removed before it stay removed.
    public func removeAll() throws(CacheError) {
        try state.withLock { state throws(CacheError) in
            for name in ownFiles() {
                do throws(POSIXFile.Failure) {
                    try POSIXFile.remove(path(of: name))
                } catch {
                    state.index = nil
                    throw CacheError(
                        operation: .removeAll, key: nil, path: path(of: name),
                        reason: .fileSystem(code: error.code, message: error.message))
                }
            }
            state.index = ClockTable()
            state.totalSize = 0
        }
    }

    /// Removes every expired entry.
    /// - Returns: How many entries were removed.
    @discardableResult
    public func removeExpired() -> Int {
        let seconds = clock.now().timeIntervalSince1970
        var events: [CacheEvent] = []
        let removed = state.withLock { state -> Int in
            guard ensureIndex(&state),
                let expired = state.index?.keys(where: { $0.expiration.isExpired(at: seconds) })
            else { return 0 }
            for name in expired {
                removeEntry(name: name, state: &state)
                if configuration.onEvent != nil { events.append(.expired(.disk, key: name)) }
            }
            state.statistics.expirations += expired.count
            return expired.count
        }
        emit(events)
        return removed
    }

    // MARK: - Inspecting

    /// The number of entries indexed, expired ones not yet removed included.
    public var count: Int {
        state.withLock { state in
            _ = ensureIndex(&state)
            return state.index?.count ?? 0
        }
    }

    /// The total size in bytes of the entries' files.
    public var totalSize: Int {
        state.withLock { state in
            _ = ensureIndex(&state)
            return state.totalSize
        }
    }

    /// Hits, misses, evictions and expirations so far.
    public var statistics: CacheStatistics {
        state.withLock { $0.statistics }
    }

    /// How many times the directory has been listed to build the index (for tests).
    var indexBuildCount: Int {
        state.withLock { $0.indexBuilds }
    }

    // MARK: - The index

    /// Builds the index from the directory once. Returns false when the directory cannot be read (every
    /// read is then a miss, and the next call tries again).
    private func ensureIndex(_ state: inout State) -> Bool {
        if state.index != nil { return true }
        state.indexBuilds += 1
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directoryPath) else {
            return false
        }
        var found: [(name: String, entry: IndexEntry, lastAccess: Double)] = []
        found.reserveCapacity(names.count)
        for name in names {
            if name.hasPrefix(".tmp-") {
                // A store that crashed between writing and renaming.
                try? POSIXFile.remove(path(of: name))
                continue
            }
            guard Self.isEntryFileName(name) else { continue }
            switch readIndexEntry(name: name) {
            case .entry(let entry, let lastAccess):
                found.append((name, entry, lastAccess))
            case .invalid:
                try? POSIXFile.remove(path(of: name))
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

    private enum IndexRead {
        case entry(IndexEntry, lastAccess: Double)
        /// An unreadable, truncated or corrupt file: removed.
        case invalid
        /// A pipe, device, socket, directory or symbolic link under an entry's name, or a file larger than
        /// this storage's size limit: skipped, left alone.
        case skipped
    }

    private func readIndexEntry(name: String) -> IndexRead {
        let descriptor: Int32
        do throws(POSIXFile.Failure) {
            descriptor = try POSIXFile.openForReading(path(of: name), writable: false)
        } catch {
            // ELOOP: a symbolic link, which O_NOFOLLOW refused; EISDIR and the like: not a file either.
            return [ELOOP, EISDIR, ENXIO].contains(error.code) ? .skipped : .invalid
        }
        defer { close(descriptor) }
        guard let status = try? POSIXFile.status(descriptor) else { return .invalid }
        // Larger than this storage ever writes: maybe another storage's entry; skipped, left alone.
        guard status.isRegularFile, status.size <= configuration.sizeLimit else { return .skipped }
        guard status.size >= EntryFile.trailerSize,
            let bytes = try? POSIXFile.read(
                descriptor, count: EntryFile.trailerSize, at: status.size - EntryFile.trailerSize),
            let trailer = EntryFile.decodeTrailer(bytes, fileSize: status.size)
        else { return .invalid }
        let entry = IndexEntry(size: status.size, expiration: trailer.expiration, generation: 0)
        return .entry(entry, lastAccess: status.modified)
    }

    private func removeEntry(name: String, state: inout State) {
        try? POSIXFile.remove(path(of: name))
        if let removed = state.index?.remove(name) { state.totalSize -= removed.payload.size }
    }

    private func ownFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directoryPath)) ?? []
        return names.filter { $0.hasPrefix(".tmp-") || Self.isEntryFileName($0) }
    }

    private static func isEntryFileName(_ name: String) -> Bool {
        name.utf8.count == 32 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    private func path(of name: String) -> String {
        directoryPath + "/" + name
    }

    private func emit(_ events: [CacheEvent]) {
        guard let onEvent = configuration.onEvent else { return }
        for event in events { onEvent(event) }
    }
}
