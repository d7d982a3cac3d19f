import Foundation

extension MemoryStorage {
    /// Evicts entries, in the same CLOCK order as the limits do, until at most `count` remain.
    /// - Parameter count: The number of entries to keep; a negative count is 0.
    public func trim(toCount count: Int) {
        trim { table, _ in table > max(count, 0) }
    }

    /// Evicts entries, in the same CLOCK order as the limits do, until their total cost is at most `cost`:
    /// what a memory warning does with half the current cost. Use it to answer a signal of your own.
    /// - Parameter cost: The total cost to keep; a negative cost is 0.
    public func trim(toCost cost: Int) {
        trim { _, total in total > max(cost, 0) }
    }

    /// Answers one of ``Configuration/signals``: see ``MemorySignals`` for what each does.
    func respond(to signal: MemorySignals.Signal) {
        switch signal {
        case .memoryWarning:
            trim(toCost: totalCost / 2)
        case .criticalMemory:
            removeAll()
        case .enteredBackground:
            removeExpired()
            trim(toCost: totalCost / 10)
        }
    }

    /// Evicts the least recently used entries while `isOver(count, totalCost)` holds; events and the
    /// values' release come after the lock is given back.
    private func trim(while isOver: (_ count: Int, _ totalCost: Int) -> Bool) {
        let evicted = state.withLock { state -> [Removed] in
            var evicted: [Removed] = []
            while isOver(state.table.count, state.totalCost),
                let oldest = state.table.removeLeastRecentlyUsed()
            {
                state.totalCost -= oldest.payload.cost
                state.statistics.evictions += 1
                evicted.append((oldest.key, oldest.payload))
            }
            return evicted
        }
        if let onEvent = configuration.onEvent {
            for removed in evicted { onEvent(.evicted(.memory, key: String(describing: removed.key))) }
        }
        withExtendedLifetime(evicted) {}
    }
}
