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
/// - One process per directory by default. A folder that an app and its extensions share is declared
///   with ``Configuration/sharedAcrossProcesses``: every storage on it then follows the others' changes
///   and keeps the limits for the folder as a whole.
public final class DiskStorage<Value: DataConvertible & Sendable>: Sendable {
    typealias IndexEntry = DiskIndexEntry
    typealias State = DiskState

    /// The configuration the storage was created with.
    public let configuration: Configuration
    /// The folder holding the entries.
    public let directoryURL: URL
    let directoryPath: String
    /// `directoryPath` and a slash: an entry's path is one append away.
    let directoryPrefix: String
    let clock: CacheClock
    let state = Locked(State())
    /// The folder's change journal when it is shared across processes; `nil` otherwise.
    let journal: SharedJournal?
    private let sweeper = Locked<SweepTimer?>(nil)
    /// What tests change inside the storage; nothing outside tests.
    let hooks = Locked(Hooks())

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
        self.directoryPrefix = directory.path + "/"
        try Self.prepare(directory, protection: configuration.fileProtection)
        if configuration.sharedAcrossProcesses {
            do throws(POSIXFile.Failure) {
                journal = try SharedJournal(directory: directory.path)
            } catch {
                throw CacheError(
                    operation: .open, key: nil, path: directory.path + "/" + SharedJournal.fileName,
                    reason: .fileSystem(code: error.code, message: error.message))
            }
        } else {
            journal = nil
        }
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

    // MARK: - Helpers

    /// Takes the entry file `name` out of the directory and the index, under the lock, so a store cannot
    /// rename a new file into place between the two. The file is only renamed to a temporary name here
    /// (a directory operation); its data is freed when the caller deletes it, after unlocking: deleting a
    /// 1 MB file under the lock would hold up every reader.
    /// In a shared folder the file is listed in the journal with its removal.
    func retireFile(name: String, state: inout State, into retired: inout [String]) {
        let trash = Self.temporaryPath(in: directoryPath, for: name, generation: 0)
        var none: [CacheEvent] = []
        changingShared([name], in: &state, events: &none) { _ in
            do throws(POSIXFile.Failure) {
                try POSIXFile.move(path(of: name), to: trash)
                retired.append(trash)
            } catch {
                try? POSIXFile.remove(path(of: name))
            }
        }
        if let removed = state.index?.remove(name) {
            state.totalSize -= removed.payload.size
            Self.raiseFloor(name, to: removed.payload.storeOrder, state: &state)
        }
    }

    /// Deletes files ``retireFile(name:state:into:)`` set aside; called after unlocking.
    func discard(_ retired: [String]) {
        for path in retired { try? POSIXFile.remove(path) }
    }

    func path(of name: String) -> String {
        directoryPrefix + name
    }

    func emit(_ events: [CacheEvent]) {
        guard let onEvent = configuration.onEvent else { return }
        for event in events { onEvent(event) }
    }
}
