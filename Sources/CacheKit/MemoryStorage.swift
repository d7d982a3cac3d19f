import Dispatch
import Foundation

/// A thread-safe in-memory cache with least-recently-used eviction, count and cost limits, and
/// per-entry expiration.
///
/// ```swift
/// let posters = MemoryStorage<String, Data>(configuration: .init(totalCostLimit: 50 * 1024 * 1024))
/// posters.store(imageData, forKey: url.absoluteString)
/// let cached = posters.value(forKey: url.absoluteString)
/// ```
///
/// It is its own O(1) table with CLOCK ("second chance") eviction, an approximation of least recently
/// used order, rather than `NSCache`, which on Linux evicts the newest entry first and never
/// refreshes on reads (see Docs/CacheKit.md). An expired entry is never returned; a periodic sweep
/// removes expired entries that nobody reads.
public final class MemoryStorage<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline var value: Value
        @usableFromInline var cost: Int
        @usableFromInline var expiration: StoredExpiration

        @inlinable
        init(value: Value, cost: Int, expiration: StoredExpiration) {
            self.value = value
            self.cost = cost
            self.expiration = expiration
        }
    }

    /// An entry taken out of the table under the lock, released after unlocking.
    @usableFromInline typealias Removed = (key: Key, entry: Entry)

    @usableFromInline
    struct State: Sendable {
        @usableFromInline var table = ClockTable<Key, Entry>()
        @usableFromInline var totalCost = 0
        @usableFromInline var statistics = CacheStatistics()

        @inlinable init() {}
    }

    /// The configuration the storage was created with.
    public let configuration: Configuration
    @usableFromInline let clock: CacheClock
    @usableFromInline let state: Locked<State>
    /// Whether the default cost of a value of exactly type `Value` is 1 (``valuesOfExactTypeCostOne``,
    /// decided once), and no cost closure was set.
    @usableFromInline let defaultCostIsOne: Bool
    private let sweeper = Locked<SweepTimer?>(nil)
    /// The listeners of ``Configuration/signals``; they stop when released with the storage.
    private let signalListeners = Locked<[any Sendable]>([])

    /// Creates an empty storage.
    /// - Parameters:
    ///   - configuration: Limits, default expiration and sweep interval; see ``Configuration``.
    ///   - clock: Where the current time comes from; ``CacheClock/system`` by default.
    public init(configuration: Configuration = Configuration(), clock: CacheClock = .system) {
        self.configuration = configuration
        self.clock = clock
        self.state = Locked(State())
        self.defaultCostIsOne = configuration.customCost == nil && Self.valuesOfExactTypeCostOne
        if let interval = configuration.sweepInterval, interval.isFinite, interval <= 365 * 86_400 {
            sweeper.withLock {
                $0 = SweepTimer(interval: interval, label: "CacheKit.MemoryStorage.sweep") {
                    [weak self] in self?.removeExpired()
                }
            }
        }
        let listeners = configuration.signals.listen { [weak self] signal in self?.respond(to: signal) }
        signalListeners.withLock { $0 = listeners }
    }

    // MARK: - Reading

    /// The live value for `key`, or `nil` when there is none or it has expired (an expired entry is
    /// removed).
    /// - Parameters:
    ///   - key: The entry's key.
    ///   - extending: What this read does to the entry's expiration; ``ExpirationExtending/cacheTime``
    ///     (renew for the original duration) by default.
    /// - Returns: The value, or `nil` on a miss.
    @inlinable
    public func value(forKey key: Key, extendingExpiration extending: ExpirationExtending = .cacheTime)
        -> Value?
    {
        entry(forKey: key, extending: extending)?.value
    }

    /// The live value for `key` with its expiration after this read, or `nil`; what the tier seam and
    /// ``Cache`` read, so a value moved to another tier keeps its remaining lifetime.
    @inlinable
    func entry(forKey key: Key, extending: ExpirationExtending, countingMiss: Bool = true) -> (
        value: Value, expiration: StoredExpiration
    )? {
        let seconds = clock.secondsSince1970()
        // The lock is taken directly, and the state reached through one `inout` call, not a closure, so
        // this path specializes fully in the caller.
        state.lock.lock()
        let (found, expired) = Self.read(
            key, from: &state.state, at: seconds, extending: extending,
            countingMiss: countingMiss)
        state.lock.unlock()
        // The expired entry is released here, after unlocking: its value's deinit may call back.
        if let expired { withExtendedLifetime(expired) {} }
        if let onEvent = configuration.onEvent {
            let name = String(describing: key)
            if expired != nil { onEvent(.expired(.memory, key: name)) }
            if found != nil {
                onEvent(.hit(.memory, key: name))
            } else if countingMiss {
                onEvent(.miss(.memory, key: name))
            }
        }
        return found
    }

    @inlinable @inline(__always)
    static func read(
        _ key: Key, from state: inout State, at seconds: Double, extending: ExpirationExtending,
        countingMiss: Bool
    ) -> (found: (value: Value, expiration: StoredExpiration)?, expired: Removed?) {
        // Read, checked and renewed in place inside the table: `nil` when absent, `.some(nil)` when
        // expired.
        let outcome = state.table.referencing(key) { entry -> (value: Value, expiration: StoredExpiration)? in
            if entry.expiration.isExpired(at: seconds) { return nil }
            entry.expiration.renew(by: extending, at: seconds)
            return (entry.value, entry.expiration)
        }
        switch outcome {
        case .none:
            if countingMiss { state.statistics.misses += 1 }
            return (nil, nil)
        case .some(.none):
            let removed = Self.remove(key, from: &state)
            if countingMiss { state.statistics.misses += 1 }
            state.statistics.expirations += 1
            return (nil, removed)
        case .some(.some(let found)):
            state.statistics.hits &+= 1  // a count no program reaches 2^63 of
            return (found, nil)
        }
    }

    /// Removes `key` from the table and its cost from the total; the caller releases what it returns
    /// after unlocking.
    @inlinable
    static func remove(_ key: Key, from state: inout State) -> Removed? {
        guard let removed = state.table.remove(key) else { return nil }
        state.totalCost -= removed.payload.cost
        return (removed.key, removed.payload)
    }

    /// Whether a live entry exists for `key`. Does not count as a read: recency, expiration and
    /// statistics are unchanged.
    /// - Parameter key: The entry's key.
    /// - Returns: `true` when ``value(forKey:extendingExpiration:)`` would return a value now.
    @inlinable
    public func contains(_ key: Key) -> Bool {
        let seconds = clock.secondsSince1970()
        state.lock.lock()
        defer { state.lock.unlock() }
        guard let entry = state.state.table.peek(key) else { return false }
        return !entry.expiration.isExpired(at: seconds)
    }

    // MARK: - Writing

    /// Stores `value` for `key`, replacing any earlier value. When a limit would be exceeded, other entries
    /// are evicted first, oldest first, giving an entry read since the last pass a second chance; the
    /// value being stored is never evicted by its own store.
    ///
    /// A value whose cost alone exceeds ``Configuration/totalCostLimit``, any value when
    /// ``Configuration/countLimit`` is 0 or less, and a value already expired (a zero or negative duration,
    /// a date in the past) is not stored, and any older value for the key is removed: an entry that cannot
    /// be kept never empties the cache or takes a live entry's place.
    /// - Parameters:
    ///   - value: The value to keep.
    ///   - key: The entry's key.
    ///   - expiration: This entry's expiration; ``Configuration/expiration`` when `nil` (the default).
    @inlinable
    public func store(_ value: Value, forKey key: Key, expiration: CacheExpiration? = nil) {
        // Costs are the user's numbers. Each is at most half of `Int.max`, and so is the limit the total
        // is held to (see `insert`), so adding one entry to a total within the limit never overflows.
        let cost = min(max(cost(of: value), 0), Self.largestCost)
        let seconds = clock.secondsSince1970()
        let stored = StoredExpiration(expiration ?? configuration.expiration, at: seconds)
        // Expired on arrival: the store removes the key's entry rather than take a slot from a live one.
        guard !stored.isExpired(at: seconds) else {
            removeValue(forKey: key)
            return
        }
        state.lock.lock()
        let (replaced, evicted) = Self.insert(
            Entry(value: value, cost: cost, expiration: stored), forKey: key, into: &state.state,
            configuration: configuration)
        state.lock.unlock()
        // Released here, after unlocking: a replaced or evicted value's deinit may call back.
        withExtendedLifetime(replaced) {}
        if let onEvent = configuration.onEvent {
            for removed in evicted { onEvent(.evicted(.memory, key: String(describing: removed.key))) }
        }
        withExtendedLifetime(evicted) {}
    }

    /// The largest cost an entry counts for, and the largest total cost limit in force.
    @usableFromInline static var largestCost: Int { Int.max / 2 }

    /// Inserts, then makes room: the entry being stored is never the victim of its own store.
    @inlinable
    static func insert(
        _ entry: Entry, forKey key: Key, into state: inout State, configuration: Configuration
    ) -> (replaced: Removed?, evicted: Leftovers<Removed>) {
        var evicted = Leftovers<Removed>()
        let costLimit = min(configuration.totalCostLimit, largestCost)
        guard entry.cost <= costLimit, configuration.countLimit > 0 else {
            return (remove(key, from: &state), evicted)
        }
        // One hashed probe finds, replaces or inserts the key (a store was 3,734 instructions when it
        // probed three times and asked the runtime for the cost; Docs/Performance-Causes.md).
        let (old, link) = state.table.upsert(entry, forKey: key)
        var replaced: Removed?
        if let old {
            state.totalCost -= old.cost
            replaced = (key, old)
        }
        // `totalCost` is at most `costLimit` and `entry.cost` at most `largestCost`: the sum cannot overflow.
        state.totalCost += entry.cost
        while state.table.count > configuration.countLimit || state.totalCost > costLimit,
            let oldest = state.table.removeLeastRecentlyUsed(sparing: link)
        {
            state.totalCost -= oldest.payload.cost
            state.statistics.evictions += 1
            evicted.append((oldest.key, oldest.payload))
        }
        // Entries given a second chance on the way went to the newest end; the new entry goes after them,
        // as if it had been inserted once room was made.
        state.table.moveToNewest(link)
        return (replaced, evicted)
    }

    // MARK: - Removing

    /// Removes the entry for `key`, if any, and reports ``CacheEvent/removed(_:key:)``.
    /// - Parameter key: The entry's key.
    public func removeValue(forKey key: Key) {
        let removed = state.withLock { Self.remove(key, from: &$0) }
        if let removed, let onEvent = configuration.onEvent {
            onEvent(.removed(.memory, key: String(describing: removed.key)))
        }
        withExtendedLifetime(removed) {}
    }

    /// Removes every entry, reporting ``CacheEvent/removed(_:key:)`` for each. Statistics are kept.
    public func removeAll() {
        let removed = state.withLock { state -> ClockTable<Key, Entry> in
            defer {
                state.table = ClockTable()
                state.totalCost = 0
            }
            return state.table
        }
        if let onEvent = configuration.onEvent {
            for key in removed.keysNewestFirst { onEvent(.removed(.memory, key: String(describing: key))) }
        }
        withExtendedLifetime(removed) {}
    }

    /// Removes every expired entry. The periodic sweep calls this.
    /// - Returns: How many entries were removed.
    @discardableResult
    public func removeExpired() -> Int {
        let seconds = clock.secondsSince1970()
        let removed = state.withLock { state -> [Removed] in
            let expired = state.table.keys { $0.expiration.isExpired(at: seconds) }
            state.statistics.expirations += expired.count
            return expired.compactMap { Self.remove($0, from: &state) }
        }
        if let onEvent = configuration.onEvent {
            for entry in removed { onEvent(.expired(.memory, key: String(describing: entry.key))) }
        }
        return removed.count
    }

    // MARK: - Inspecting

    /// The number of entries held, expired ones not yet removed included.
    public var count: Int {
        state.withLock { $0.table.count }
    }

    /// The total cost of the entries held.
    public var totalCost: Int {
        state.withLock { $0.totalCost }
    }

    /// Hits, misses, evictions and expirations so far.
    public var statistics: CacheStatistics {
        state.withLock { $0.statistics }
    }

    /// The keys held, most recently stored or given a second chance first (an approximation of most
    /// recently used first: a read marks an entry but does not move it).
    public var keys: [Key] {
        state.withLock { $0.table.keysNewestFirst }
    }
}
