/// The caches' table: a dictionary whose values carry the payload, plus recency links kept apart.
///
/// It offers two recency policies over the same links. The memory tier uses CLOCK ("second chance"),
/// an approximation of least-recently-used order that makes a hit cheap (``referencing(_:_:)`` and
/// ``removeLeastRecentlyUsed()``). The disk tier, where a hit costs file I/O anyway, keeps exact LRU
/// order (``touch(_:)`` and ``oldestEntry(skipping:)``).
///
/// A hit is one hashed probe: it reads the payload and sets a "referenced" mark in the same dictionary
/// entry, touching no other memory. Eviction starts at the oldest link; an entry marked since it was
/// last passed over is unmarked and moved to the newest end instead of being evicted, so an entry read
/// at least once per pass through the table stays. Amortised O(1) everywhere; nothing allocates once
/// the table has grown. Not thread-safe: its owner locks.
@usableFromInline
struct ClockTable<Key: Hashable, Payload> {
    @usableFromInline
    struct Item {
        @usableFromInline var payload: Payload
        @usableFromInline var link: Int
        @usableFromInline var isReferenced: Bool

        @inlinable
        init(payload: Payload, link: Int) {
            self.payload = payload
            self.link = link
            self.isReferenced = false
        }
    }

    @usableFromInline
    struct Link {
        @usableFromInline var key: Key?
        @usableFromInline var newer: Int
        @usableFromInline var older: Int

        @inlinable
        init(key: Key?, newer: Int, older: Int) {
            self.key = key
            self.newer = newer
            self.older = older
        }
    }

    /// A found entry's position, valid until the table is next inserted into or removed from.
    @usableFromInline typealias Position = Dictionary<Key, Item>.Index

    @usableFromInline var items: [Key: Item] = [:]
    @usableFromInline var links: [Link] = []
    /// The first free link; free links are chained through their `newer` field, so freeing and reusing
    /// one touches no other array.
    @usableFromInline var firstFree = -1
    @usableFromInline var newest = -1
    @usableFromInline var oldest = -1

    @inlinable init() {}

    @inlinable var count: Int { items.count }

    /// The payload for `key`, without marking it.
    @inlinable
    func peek(_ key: Key) -> Payload? {
        items[key]?.payload
    }

    /// Finds `key`, marks it as used (a hit) and lets `body` read and update its payload in place:
    /// one hashed probe and one write access, with no copy of the payload.
    /// - Returns: What `body` returned, or `nil` when `key` is absent.
    @inlinable @inline(__always)
    mutating func referencing<Result>(_ key: Key, _ body: (inout Payload) -> Result) -> Result? {
        guard let position = items.index(forKey: key) else { return nil }
        return Self.modify(&items.values[position]) { item in
            item.isReferenced = true
            return body(&item.payload)
        }
    }

    /// Runs `body` on `value` in one access: called on `items.values[position]`, the dictionary's entry
    /// is reached once, not once per field written.
    @inlinable @inline(__always)
    static func modify<Value, Result>(_ value: inout Value, _ body: (inout Value) -> Result) -> Result {
        body(&value)
    }

    /// Finds `key` and moves it to the newest end: exact least-recently-used order.
    @inlinable
    mutating func touch(_ key: Key) -> Position? {
        guard let position = items.index(forKey: key) else { return nil }
        moveToNewest(items.values[position].link)
        return position
    }

    /// The oldest entry other than `kept`, without removing it.
    @inlinable
    func oldestEntry(skipping kept: Key) -> (key: Key, payload: Payload)? {
        var link = oldest
        while link >= 0 {
            if let key = links[link].key, key != kept, let item = items[key] { return (key, item.payload) }
            link = links[link].newer
        }
        return nil
    }

    @inlinable
    func payload(at position: Position) -> Payload {
        items.values[position].payload
    }

    /// Inserts or replaces `key` as the newest, unmarked entry. Returns the replaced payload.
    @inlinable
    @discardableResult
    mutating func insert(_ payload: Payload, forKey key: Key) -> Payload? {
        if let position = items.index(forKey: key) {
            let old = items.values[position].payload
            items.values[position].payload = payload
            items.values[position].isReferenced = false
            moveToNewest(items.values[position].link)
            return old
        }
        items[key] = Item(payload: payload, link: newestLink(for: key))
        return nil
    }

    /// Inserts or replaces `key` as the newest, unmarked entry in one hashed probe, one fewer than
    /// ``insert(_:forKey:)``. Returns the replaced payload, and the new entry's link for
    /// ``removeLeastRecentlyUsed(sparing:)``.
    @inlinable
    mutating func upsert(_ payload: Payload, forKey key: Key) -> (replaced: Payload?, link: Int) {
        let link = newestLink(for: key)
        guard let old = items.updateValue(Item(payload: payload, link: link), forKey: key) else {
            return (nil, link)
        }
        // The dictionary keeps the key it stored first (`updateValue` replaces only the value), and so
        // does the link: keys equal but told apart (a string in NFC and in NFD) read the same everywhere.
        links[link].key = links[old.link].key
        unlink(old.link)
        free(old.link)
        return (old.payload, link)
    }

    /// A link for `key` at the newest end, reusing a free one.
    @inlinable
    mutating func newestLink(for key: Key) -> Int {
        let link: Int
        if firstFree >= 0 {
            link = firstFree
            firstFree = links[link].newer
            links[link] = Link(key: key, newer: -1, older: newest)
        } else {
            link = links.count
            links.append(Link(key: key, newer: -1, older: newest))
        }
        if newest >= 0 { links[newest].newer = link }
        newest = link
        if oldest < 0 { oldest = link }
        return link
    }

    /// Removes `key` and returns the stored key with its payload, so the caller decides when both are
    /// released.
    @inlinable
    @discardableResult
    mutating func remove(_ key: Key) -> (key: Key, payload: Payload)? {
        guard let position = items.index(forKey: key) else { return nil }
        return remove(at: position)
    }

    /// Removes the entry at `position` (found by the caller, so the key is not hashed again).
    @inlinable
    mutating func remove(at position: Position) -> (key: Key, payload: Payload) {
        let (storedKey, item) = items.remove(at: position)
        unlink(item.link)
        free(item.link)
        return (storedKey, item.payload)
    }

    /// Removes the oldest entry not marked since it was last passed over; marked entries met on the way
    /// are unmarked and moved to the newest end, and so is the entry at link `kept`, which is never
    /// removed (`nil` once it is the only entry left).
    @inlinable
    mutating func removeLeastRecentlyUsed(sparing kept: Int = -1) -> (key: Key, payload: Payload)? {
        while oldest >= 0 {
            let link = oldest
            if link == kept {
                if newest == kept { return nil }
                moveToNewest(kept)
                continue
            }
            guard let key = links[link].key, let position = items.index(forKey: key) else { return nil }
            if items.values[position].isReferenced {
                items.values[position].isReferenced = false
                moveToNewest(link)
                continue
            }
            return remove(at: position)
        }
        return nil
    }

    /// The keys whose payloads satisfy `predicate`. O(n).
    @inlinable
    func keys(where predicate: (Payload) -> Bool) -> [Key] {
        items.compactMap { predicate($0.value.payload) ? $0.key : nil }
    }

    /// Every key, from the newest link to the oldest. O(n).
    @inlinable
    var keysNewestFirst: [Key] {
        var result: [Key] = []
        result.reserveCapacity(count)
        var link = newest
        while link >= 0 {
            if let key = links[link].key { result.append(key) }
            link = links[link].older
        }
        return result
    }

    @inlinable
    mutating func moveToNewest(_ link: Int) {
        guard link != newest else { return }
        unlink(link)
        links[link].older = newest
        links[link].newer = -1
        if newest >= 0 { links[newest].newer = link }
        newest = link
        if oldest < 0 { oldest = link }
    }

    /// Puts an unlinked `link` at the head of the free chain.
    @inlinable
    mutating func free(_ link: Int) {
        links[link].key = nil
        links[link].newer = firstFree
        firstFree = link
    }

    @inlinable
    mutating func unlink(_ link: Int) {
        let newer = links[link].newer
        let older = links[link].older
        if newer >= 0 { links[newer].older = older } else { newest = older }
        if older >= 0 { links[older].newer = newer } else { oldest = newer }
    }
}

extension ClockTable: Sendable where Key: Sendable, Payload: Sendable {}
extension ClockTable.Item: Sendable where Key: Sendable, Payload: Sendable {}
extension ClockTable.Link: Sendable where Key: Sendable, Payload: Sendable {}
