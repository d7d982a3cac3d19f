import CacheKit
import Foundation
import TestSupport
import Testing

/// The platform's memory warnings and background notifications, driven through a notification center the
/// test owns (Linux has neither signal; the logic is the same one the platform's signals call).
@Suite("MemoryStorage: memory warnings and the background")
struct MemorySignalsTests {
    let clock = ManualClock()
    let center = NotificationCenter()
    static let warning = Notification.Name("test.memoryWarning")
    static let background = Notification.Name("test.enteredBackground")

    /// A storage whose values cost their length, hearing the test's center.
    func makeStorage() -> MemoryStorage<String, String> {
        MemoryStorage(
            configuration: .init(
                sweepInterval: nil, cost: { $0.utf8.count },
                signals: .notifications(
                    center: center, memoryWarning: Self.warning, enteredBackground: Self.background)),
            clock: clock.cacheClock)
    }

    @Test func aMemoryWarningTrimsTheTotalCostToHalfLeastRecentlyUsedFirst() {
        // Given four entries of cost 100, stored oldest first
        let storage = makeStorage()
        for key in ["k1", "k2", "k3", "k4"] { storage.store(String(repeating: "x", count: 100), forKey: key) }
        // When the memory warning arrives
        center.post(name: Self.warning, object: nil)
        // Then half the cost is given back, the oldest entries first
        #expect(storage.totalCost == 200)
        #expect(Set(storage.keys) == ["k3", "k4"])
    }

    @Test func aMemoryWarningTrimsByCostNotByCount() {
        // Given one large entry and three small ones
        let storage = makeStorage()
        storage.store(String(repeating: "x", count: 1_000), forKey: "poster")
        for key in ["a", "b", "c"] { storage.store("y", forKey: key) }
        // When
        center.post(name: Self.warning, object: nil)
        // Then the large entry is gone (halving the count would have kept it: it is the oldest of four,
        // and two of four would remain)
        #expect(storage.totalCost <= 501)
        #expect(storage.value(forKey: "poster") == nil)
        #expect(storage.count == 3)
    }

    @Test func enteringTheBackgroundRemovesExpiredEntriesThenTrimsTheCostToATenth() {
        // Given ten live entries of cost 1 and ten that have expired
        let storage = makeStorage()
        for index in 0..<10 { storage.store("e", forKey: "expired\(index)", expiration: .seconds(10)) }
        clock.advance(by: 5)
        for index in 0..<10 { storage.store("l", forKey: "live\(index)", expiration: .seconds(300)) }
        clock.advance(by: 6)
        // When the app enters the background
        center.post(name: Self.background, object: nil)
        // Then the expired ones are gone and a tenth of the live cost is kept: the newest entry
        #expect(storage.totalCost == 1)
        #expect(storage.keys == ["live9"])
    }

    @Test func trimToCostKeepsTheNewestEntriesThatFit() {
        // Given
        let storage = makeStorage()
        for key in ["k1", "k2", "k3"] { storage.store(String(repeating: "x", count: 10), forKey: key) }
        // When
        storage.trim(toCost: 25)
        // Then
        #expect(storage.totalCost == 20)
        #expect(Set(storage.keys) == ["k2", "k3"])
        #expect(storage.statistics.evictions == 1)
    }

    @Test func aReleasedStorageStopsListening() {
        // Given a storage that was released
        weak var released: MemoryStorage<String, String>?
        do {
            let storage = makeStorage()
            storage.store("v", forKey: "k")
            released = storage
        }
        // When a warning arrives afterwards
        center.post(name: Self.warning, object: nil)
        // Then nothing kept the storage alive, and the post reached no dead observer
        #expect(released == nil)
    }
}
