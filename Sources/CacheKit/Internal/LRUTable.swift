/// A dictionary that remembers recency: every operation is O(1), and the least recently used entry is
/// always at hand for eviction.
///
/// Entries live in an array of slots linked by index (newest ↔ oldest), with freed slots reused, so a
/// hit or an insert allocates nothing once the table has grown. Not thread-safe: its owner locks.
@usableFromInline
struct LRUTable<Key: Hashable, Payload> {
    @usableFromInline
    struct Slot {
        @usableFromInline var key: Key
        @usableFromInline var payload: Payload
        @usableFromInline var newer: Int
        @usableFromInline var older: Int

        @inlinable
        init(key: Key, payload: Payload, newer: Int, older: Int) {
            self.key = key
            self.payload = payload
            self.newer = newer
            self.older = older
        }
    }

    @inlinable init() {}

    @usableFromInline var slots: [Slot] = []
    @usableFromInline var indexByKey: [Key: Int] = [:]
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var newest = -1
    @usableFromInline var oldest = -1

    @inlinable var count: Int { indexByKey.count }
    @inlinable var isEmpty: Bool { indexByKey.isEmpty }

    /// The payload for `key` without changing its recency.
    @inlinable
    func peek(_ key: Key) -> Payload? {
        guard let index = indexByKey[key] else { return nil }
        return slots[index].payload
    }

    /// Marks `key` as the most recently used and lets `body` read or change its payload.
    @inlinable
    mutating func access<Result>(_ key: Key, _ body: (inout Payload) -> Result) -> Result? {
        guard let index = indexByKey[key] else { return nil }
        moveToNewest(index)
        return body(&slots[index].payload)
    }

    /// Inserts or replaces `key`, as the most recently used. Returns the replaced payload.
    @discardableResult
    @inlinable
    mutating func insert(_ payload: Payload, forKey key: Key) -> Payload? {
        if let index = indexByKey[key] {
            let old = slots[index].payload
            slots[index].payload = payload
            moveToNewest(index)
            return old
        }
        let slot = Slot(key: key, payload: payload, newer: -1, older: newest)
        let index: Int
        if let free = freeSlots.popLast() {
            index = free
            slots[index] = slot
        } else {
            index = slots.count
            slots.append(slot)
        }
        if newest >= 0 { slots[newest].newer = index }
        newest = index
        if oldest < 0 { oldest = index }
        indexByKey[key] = index
        return nil
    }

    /// Removes `key` and returns its payload.
    @discardableResult
    @inlinable
    mutating func remove(_ key: Key) -> Payload? {
        guard let index = indexByKey.removeValue(forKey: key) else { return nil }
        unlink(index)
        freeSlots.append(index)
        return slots[index].payload
    }

    /// The least recently used entry, without removing it.
    @inlinable
    var oldestEntry: (key: Key, payload: Payload)? {
        guard oldest >= 0 else { return nil }
        return (slots[oldest].key, slots[oldest].payload)
    }

    /// Removes and returns the least recently used entry.
    @inlinable
    mutating func removeOldest() -> (key: Key, payload: Payload)? {
        guard let entry = oldestEntry else { return nil }
        remove(entry.key)
        return entry
    }

    /// The keys whose payloads satisfy `predicate`, oldest first. O(n).
    @inlinable
    func keys(where predicate: (Payload) -> Bool) -> [Key] {
        var result: [Key] = []
        var index = oldest
        while index >= 0 {
            if predicate(slots[index].payload) { result.append(slots[index].key) }
            index = slots[index].newer
        }
        return result
    }

    /// Every key, most recent first. O(n).
    @inlinable
    var keysNewestFirst: [Key] {
        var result: [Key] = []
        result.reserveCapacity(count)
        var index = newest
        while index >= 0 {
            result.append(slots[index].key)
            index = slots[index].older
        }
        return result
    }

    @inlinable
    mutating func removeAll() {
        self = LRUTable()
    }

    @inlinable
    mutating func moveToNewest(_ index: Int) {
        guard index != newest else { return }
        unlink(index)
        slots[index].older = newest
        slots[index].newer = -1
        if newest >= 0 { slots[newest].newer = index }
        newest = index
        if oldest < 0 { oldest = index }
    }

    @inlinable
    mutating func unlink(_ index: Int) {
        let newer = slots[index].newer
        let older = slots[index].older
        if newer >= 0 { slots[newer].older = older } else { newest = older }
        if older >= 0 { slots[older].newer = newer } else { oldest = newer }
    }
}

extension LRUTable: Sendable where Key: Sendable, Payload: Sendable {}
extension LRUTable.Slot: Sendable where Key: Sendable, Payload: Sendable {}
