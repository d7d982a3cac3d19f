import CacheKit
import Foundation
import TestSupport
import Testing

@Suite("MemoryStorage: a store never evicts what it stores")
struct EvictionOrderTests {
    let clock = ManualClock()

    func makeStorage(countLimit: Int = .max, totalCostLimit: Int = .max, events: EventLog? = nil)
        -> MemoryStorage<String, String>
    {
        var onEvent: (@Sendable (CacheEvent) -> Void)?
        if let events { onEvent = { events.record($0) } }
        return MemoryStorage(
            configuration: .init(
                countLimit: countLimit, totalCostLimit: totalCostLimit, sweepInterval: nil, onEvent: onEvent),
            clock: clock.cacheClock)
    }

    @Test func aStoreAfterEveryEntryWasReadKeepsTheNewValue() {
        // Given a, b and c, each read since it was stored
        let storage = makeStorage(countLimit: 3)
        for key in ["a", "b", "c"] { storage.store(key, forKey: key) }
        for key in ["a", "b", "c"] { _ = storage.value(forKey: key) }
        // When
        storage.store("d", forKey: "d")
        // Then
        #expect(storage.value(forKey: "d") == "d")
        #expect(storage.count == 3)
    }

    @Test func withACountLimitOfOneEveryStoreKeepsItsValue() {
        // Given one entry, read
        let storage = makeStorage(countLimit: 1)
        storage.store("a", forKey: "a")
        _ = storage.value(forKey: "a")
        // When
        storage.store("b", forKey: "b")
        // Then
        #expect(storage.value(forKey: "b") == "b")
        #expect(storage.keys == ["b"])
    }

    @Test func theCostLimitNeverEvictsTheValueBeingStored() {
        // Given 8 of 10 bytes used by entries that were read
        let storage = makeStorage(totalCostLimit: 10)
        storage.store("aaaa", forKey: "a")
        storage.store("bbbb", forKey: "b")
        _ = storage.value(forKey: "a")
        _ = storage.value(forKey: "b")
        // When a 4-byte value arrives
        storage.store("cccc", forKey: "c")
        // Then it is kept and the limit holds
        #expect(storage.value(forKey: "c") == "cccc")
        #expect(storage.totalCost <= 10)
    }

    @Test func aCountLimitOfZeroKeepsNothing() {
        // Given
        let storage = makeStorage(countLimit: 0)
        // When
        storage.store("a", forKey: "a")
        // Then
        #expect(storage.count == 0)
    }

    @Test func trimmingReportsEachEvictedKey() {
        // Given
        let log = EventLog()
        let storage = makeStorage(events: log)
        for key in ["a", "b", "c"] { storage.store(key, forKey: key) }
        // When
        storage.trim(toCount: 1)
        // Then
        #expect(log.all == [.evicted(.memory, key: "a"), .evicted(.memory, key: "b")])
    }

    @Test func removingReportsEachRemovedKey() {
        // Given
        let log = EventLog()
        let storage = makeStorage(events: log)
        for key in ["a", "b", "c"] { storage.store(key, forKey: key) }
        // When
        storage.removeValue(forKey: "a")
        storage.removeValue(forKey: "missing")
        storage.removeAll()
        // Then
        #expect(
            log.all == [
                .removed(.memory, key: "a"), .removed(.memory, key: "c"), .removed(.memory, key: "b"),
            ])
    }
}
