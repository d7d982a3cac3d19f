/// An ``HTTPCacheStore`` in memory, bounded in bytes, evicting the least recently used answers first.
///
/// An answer larger than the whole limit is not stored (and replaces nothing). Answers count their
/// ``CachedHTTPResponse/byteCount``: the body and header bytes. A read finds its answer with one hash of
/// the key and moves it to the newest end of a list kept in use order.
public final class MemoryHTTPCacheStore: HTTPCacheStore {
    /// The most bytes held.
    public let byteLimit: Int

    /// One answer, linked to its neighbours in use order by their places in `State.slots`.
    private struct Slot {
        var key: String
        var response: CachedHTTPResponse?
        var cost: Int
        var older = -1
        var newer = -1
    }

    private struct State {
        var places: [String: Int] = [:]
        /// The answers, by place; a free place holds no response and is listed in `free`.
        var slots: [Slot] = []
        var free: [Int] = []
        var oldest = -1
        var newest = -1
        var bytes = 0

        /// Takes the slot at `place` out of the use order.
        mutating func unlink(_ place: Int) {
            let (older, newer) = (slots[place].older, slots[place].newer)
            if older >= 0 { slots[older].newer = newer } else { oldest = newer }
            if newer >= 0 { slots[newer].older = older } else { newest = older }
            slots[place].older = -1
            slots[place].newer = -1
        }

        /// Puts the slot at `place` at the newest end.
        mutating func link(_ place: Int) {
            slots[place].older = newest
            if newest >= 0 { slots[newest].newer = place } else { oldest = place }
            newest = place
        }

        /// Removes the slot at `place`, returning its answer (released by the caller after unlocking).
        mutating func remove(_ place: Int) -> CachedHTTPResponse? {
            unlink(place)
            places[slots[place].key] = nil
            bytes -= slots[place].cost
            let response = slots[place].response
            slots[place] = Slot(key: "", response: nil, cost: 0)
            free.append(place)
            return response
        }
    }

    private let state = Locked(State())

    /// Creates a store.
    /// - Parameter byteLimit: The most bytes held; 10 MiB by default. A negative limit is 0.
    public init(byteLimit: Int = 10 << 20) {
        self.byteLimit = max(byteLimit, 0)
    }

    /// The bytes held now.
    public var byteCount: Int { state.withLock { $0.bytes } }

    /// How many answers are held now.
    public var count: Int { state.withLock { $0.places.count } }

    /// The answer under `key`, which becomes the most recently used.
    public func response(forKey key: String) -> CachedHTTPResponse? {
        state.withLock { state in
            guard let place = state.places[key] else { return nil }
            if state.newest != place {
                state.unlink(place)
                state.link(place)
            }
            return state.slots[place].response
        }
    }

    /// Stores `response` unless it is larger than ``byteLimit``, evicting the least recently used.
    public func store(_ response: CachedHTTPResponse, forKey key: String) {
        let (cost, overflow) = response.byteCount.addingReportingOverflow(key.utf8.count)
        guard !overflow, cost <= byteLimit else { return }
        // Replaced and evicted answers are released after unlocking: a body's bytes may have a custom
        // deallocator.
        let released = state.withLock { state in
            var released: [CachedHTTPResponse?] = []
            if let old = state.places[key] { released.append(state.remove(old)) }
            let slot = Slot(key: key, response: response, cost: cost)
            let place: Int
            if let reused = state.free.popLast() {
                place = reused
                state.slots[place] = slot
            } else {
                place = state.slots.count
                state.slots.append(slot)
            }
            state.places[key] = place
            state.bytes += cost
            state.link(place)
            while state.bytes > byteLimit, state.oldest >= 0, state.oldest != place {
                released.append(state.remove(state.oldest))
            }
            return released
        }
        withExtendedLifetime(released) {}
    }

    /// Removes the answer under `key`.
    public func removeResponse(forKey key: String) {
        let removed = state.withLock { state in
            state.places[key].flatMap { state.remove($0) }
        }
        withExtendedLifetime(removed) {}
    }

    /// Removes every answer.
    public func removeAll() {
        let removed = state.withLock { state in
            defer { state = State() }
            return state.slots
        }
        withExtendedLifetime(removed) {}
    }
}
