import Dispatch
import Foundation

/// A cache of tiers asked in order: by default ``MemoryStorage`` in front of ``DiskStorage``, behind one
/// async API; any ``CacheStorage`` can be put in front of, between or behind them.
///
/// ```swift
/// let posters = try Cache<Data>(name: "posters")
/// let image = try await posters.value(forKey: url.absoluteString) {
///     try await download(url)            // runs once, however many callers miss at once
/// }
/// ```
///
/// Stores write through to every tier; a value found in a later tier is moved into the earlier ones
/// with the lifetime it has left. Operations on one key run one at a time in the order they were
/// called, so the last completed store or remove of a key wins in every tier: a read that finds an old
/// value cannot put it back in front of a newer store, and a load that a store or remove overtook
/// hands its value to its callers without storing it. Different keys proceed in parallel. A memory hit
/// is answered on the caller's thread; disk work runs on CacheKit's own queue, never on the caller or
/// Swift's cooperative thread pool.
public final class Cache<Value: DataConvertible & Sendable>: Sendable {
    /// The tiers, asked in this order.
    public let tiers: [any CacheStorage<Value>]
    /// The first ``MemoryStorage`` among the tiers, if any.
    public let memory: MemoryStorage<String, Value>?
    /// The first ``DiskStorage`` among the tiers, if any.
    public let disk: DiskStorage<Value>?
    /// The front tier when it is a ``MemoryStorage``: a hit there needs no lane and no suspension.
    let front: MemoryStorage<String, Value>?
    let lanes = KeyLanes()
    let loads = Locked(Loads())
    /// What tests change inside the cache; nothing outside tests.
    let hooks = Locked(Hooks())

    /// The test seams of a cache, in one value: each is `nil` outside tests.
    struct Hooks: Sendable {
        /// Run between a miss and joining the in-flight loads.
        var beforeJoiningLoad: (@Sendable (String) async -> Void)?
        /// Run between a tier's hit and moving the value into the tiers in front of it.
        var beforePromoting: (@Sendable (String) async -> Void)?
    }

    /// The loads running, and the keys callers are between a miss and a load of.
    struct Loads: Sendable {
        var flights: [String: LoadFlight<Value>] = [:]
        /// Per key with callers between their miss and joining a load: how many callers, and how many
        /// changes (a finished load, a store, a remove, a removeAll) since the first of them arrived. A
        /// caller that sees a change looks again instead of loading: the value it would load may be
        /// older than the one just stored, or the one just loaded. Only the key's own changes count, and
        /// the entry goes when its last caller leaves, so it holds no more keys than callers waiting.
        var watched: [String: (callers: Int, changes: UInt64)] = [:]

        /// Counts a caller in for `key`; returns the changes so far, to compare with later.
        mutating func watch(_ key: String) -> UInt64 {
            let entry = watched[key] ?? (callers: 0, changes: 0)
            watched[key] = (entry.callers + 1, entry.changes)
            return entry.changes
        }

        /// Counts a caller out for `key`.
        mutating func unwatch(_ key: String) {
            guard let entry = watched[key] else { return }
            watched[key] = entry.callers > 1 ? (entry.callers - 1, entry.changes) : nil
        }

        /// Whether `key` changed since a caller read `changes`.
        func changed(_ key: String, since changes: UInt64) -> Bool {
            watched[key]?.changes != changes
        }

        /// Notes a change of `key`, or of every key when `nil`.
        mutating func noteChange(of key: String?) {
            guard let key else {
                for watchedKey in Array(watched.keys) { watched[watchedKey]?.changes &+= 1 }
                return
            }
            watched[key]?.changes &+= 1
        }
    }

    /// What a caller that missed does next.
    enum AfterMiss {
        case found(CachedValue<Value>)
        case cancelled
        case lookAgain
        case join(LoadFlight<Value>, waiter: UInt64, isNew: Bool)
    }

    /// Creates a cache from a memory and a disk storage you configured: memory in front of disk.
    /// - Parameters:
    ///   - memory: The memory tier.
    ///   - disk: The disk tier.
    public convenience init(memory: MemoryStorage<String, Value>, disk: DiskStorage<Value>) {
        self.init(tiers: [memory, disk])
    }

    /// Creates a cache of any tiers, asked in the order given.
    ///
    /// ```swift
    /// let cache = Cache(tiers: [MemoryStorage(), try DiskStorage(), SharedRedisTier(client)])
    /// ```
    /// - Parameter tiers: The tiers, front first.
    public init(tiers: [any CacheStorage<Value>]) {
        self.tiers = tiers
        self.memory = tiers.lazy.compactMap { $0 as? MemoryStorage<String, Value> }.first
        self.disk = tiers.lazy.compactMap { $0 as? DiskStorage<Value> }.first
        self.front = tiers.first as? MemoryStorage<String, Value>
    }

    /// Creates a cache with default tiers: memory entries live 5 minutes, disk entries 7 days in
    /// `<caches>/<app>/CacheKit/<name>` (see ``DiskStorage/Configuration/directory``), at most 150 MB on
    /// disk. For a folder of your own, use ``init(directory:clock:)``.
    /// - Parameters:
    ///   - name: The disk folder's name under the platform caches directory.
    ///   - clock: The time source of both tiers; ``CacheClock/system`` by default.
    /// - Throws: ``CacheError`` when the disk directory cannot be created.
    public convenience init(name: String, clock: CacheClock = .system) throws(CacheError) {
        self.init(
            memory: MemoryStorage(clock: clock),
            disk: try DiskStorage(configuration: .init(name: name), clock: clock))
    }

    /// A memory tier in front of a disk tier kept in `directory`, created if needed, each with its default
    /// limits: the one call for "a cache in this folder".
    ///
    /// ```swift
    /// let artwork = try Cache<Data>(directory: appSupport.appendingPathComponent("Artwork"))
    /// ```
    /// - Parameters:
    ///   - directory: The folder holding the disk entries.
    ///   - clock: The time source of both tiers; ``CacheClock/system`` by default.
    /// - Throws: ``CacheError`` when the disk directory cannot be created.
    public convenience init(directory: URL, clock: CacheClock = .system) throws(CacheError) {
        self.init(
            memory: MemoryStorage(clock: clock), disk: try DiskStorage(directory: directory, clock: clock))
    }
}
