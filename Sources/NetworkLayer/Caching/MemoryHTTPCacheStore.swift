/// An ``HTTPCacheStore`` in memory, bounded in bytes, evicting the least recently used answers first.
///
/// An answer larger than the whole limit is not stored (and replaces nothing). Answers count their
/// ``CachedHTTPResponse/byteCount``: the body and header bytes.
public final class MemoryHTTPCacheStore: HTTPCacheStore {
    /// The most bytes held.
    public let byteLimit: Int

    private struct Slot {
        var response: CachedHTTPResponse
        var cost: Int
        var use: UInt64
    }

    private struct State {
        var slots: [String: Slot] = [:]
        /// Keys in order of use, oldest first, each with the use it was queued at; an entry whose use is
        /// not the slot's current one is skipped.
        var order: [(key: String, use: UInt64)] = []
        var orderStart = 0
        var uses: UInt64 = 0
        var bytes = 0
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
    public var count: Int { state.withLock { $0.slots.count } }

    /// The answer under `key`, which becomes the most recently used.
    public func response(forKey key: String) -> CachedHTTPResponse? {
        state.withLock { state in
            guard var slot = state.slots[key] else { return nil }
            state.uses += 1
            slot.use = state.uses
            state.slots[key] = slot
            Self.queue(key, use: state.uses, in: &state)
            return slot.response
        }
    }

    /// Stores `response` unless it is larger than ``byteLimit``, evicting the least recently used.
    public func store(_ response: CachedHTTPResponse, forKey key: String) {
        let (cost, overflow) = response.byteCount.addingReportingOverflow(key.utf8.count)
        guard !overflow, cost <= byteLimit else { return }
        // Replaced and evicted answers are released after unlocking: a body's bytes may have a custom
        // deallocator.
        let released = state.withLock { state in
            var released: [CachedHTTPResponse] = []
            if let old = state.slots.removeValue(forKey: key) {
                state.bytes -= old.cost
                released.append(old.response)
            }
            state.uses += 1
            state.slots[key] = Slot(response: response, cost: cost, use: state.uses)
            state.bytes += cost
            Self.queue(key, use: state.uses, in: &state)
            while state.bytes > byteLimit, state.orderStart < state.order.count {
                let (oldest, use) = state.order[state.orderStart]
                state.orderStart += 1
                guard let slot = state.slots[oldest], slot.use == use else { continue }
                state.slots[oldest] = nil
                state.bytes -= slot.cost
                released.append(slot.response)
            }
            return released
        }
        withExtendedLifetime(released) {}
    }

    /// Removes the answer under `key`.
    public func removeResponse(forKey key: String) {
        let removed = state.withLock { state in
            let old = state.slots.removeValue(forKey: key)
            state.bytes -= old?.cost ?? 0
            return old
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

    /// Queues a use, compacting the queue once most of it is skipped entries, so it stays within twice
    /// the live answers plus a constant.
    private static func queue(_ key: String, use: UInt64, in state: inout State) {
        state.order.append((key, use))
        guard state.order.count > 2 * state.slots.count + 64 else { return }
        state.order = state.order[state.orderStart...].filter { state.slots[$0.key]?.use == $0.use }
        state.orderStart = 0
    }
}
