import CacheKit
import Foundation
import TestSupport
import Testing

@Suite("MemoryStorage")
struct MemoryStorageTests {
    let clock = ManualClock()

    func makeStorage(
        countLimit: Int = .max, totalCostLimit: Int = .max, expiration: CacheExpiration = .seconds(300)
    ) -> MemoryStorage<String, String> {
        MemoryStorage(
            configuration: .init(
                countLimit: countLimit, totalCostLimit: totalCostLimit, expiration: expiration,
                sweepInterval: nil),
            clock: clock.cacheClock)
    }

    @Test func aStoredValueIsReturned() {
        // Given
        let storage = makeStorage()
        // When
        storage.store("광해, 왕이 된 남자", forKey: "20124079")
        // Then
        #expect(storage.value(forKey: "20124079") == "광해, 왕이 된 남자")
        #expect(storage.value(forKey: "missing") == nil)
    }

    @Test func theLeastRecentlyUsedEntryIsEvictedFirst() {
        // Given
        let storage = makeStorage(countLimit: 3)
        for key in ["a", "b", "c"] { storage.store(key, forKey: key) }
        // When
        storage.store("d", forKey: "d")
        // Then
        #expect(storage.keys == ["d", "c", "b"])
        #expect(storage.statistics.evictions == 1)
    }

    @Test func aReplacedKeyKeepsTheSpellingFirstStored() {
        // Given "é" stored as one scalar (NFC)
        let storage = makeStorage()
        let composed = "\u{E9}"
        let decomposed = "e\u{301}"
        storage.store("first", forKey: composed)
        // When the equal key spelled as two scalars (NFD) replaces its value
        storage.store("second", forKey: decomposed)
        // Then the order of the table names the key as first stored, as the dictionary does
        #expect(storage.keys.map { $0.unicodeScalars.count } == [1])
        #expect(storage.value(forKey: composed) == "second")
    }

    @Test func recentlyReadEntriesSurviveEviction() {
        // Given
        let storage = makeStorage(countLimit: 3)
        for key in ["a", "b", "c"] { storage.store(key, forKey: key) }
        // When
        _ = storage.value(forKey: "a")
        storage.store("d", forKey: "d")
        // Then
        #expect(storage.value(forKey: "a") == "a")
        #expect(storage.value(forKey: "b") == nil)
    }

    @Test func aReadEarnsOneSecondChanceNotImmunity() {
        // Given a, b, c with a read once
        let storage = makeStorage(countLimit: 3)
        for key in ["a", "b", "c"] { storage.store(key, forKey: key) }
        _ = storage.value(forKey: "a")
        // When more arrive without another read of a
        for key in ["d", "e"] { storage.store(key, forKey: key) }
        let survivedOnePass = storage.contains("a")
        storage.store("f", forKey: "f")
        // Then a outlived b and c, which were never read, but not the next pass of the clock
        #expect(survivedOnePass)
        #expect(!storage.contains("a"))
        #expect(storage.keys.sorted() == ["d", "e", "f"])
    }

    @Test func theTotalCostLimitEvictsByCost() {
        // Given values costing their UTF-8 size, and room for 10 bytes
        let storage = makeStorage(totalCostLimit: 10)
        storage.store("aaaa", forKey: "a")
        storage.store("bbbb", forKey: "b")
        // When
        storage.store("cccc", forKey: "c")
        // Then
        #expect(storage.keys == ["c", "b"])
        #expect(storage.totalCost == 8)
    }

    @Test func aValueCostingMoreThanTheWholeLimitIsNotStoredAndEvictsNothing() {
        // Given
        let storage = makeStorage(totalCostLimit: 10)
        storage.store("small", forKey: "small")
        // When
        storage.store(String(repeating: "x", count: 11), forKey: "huge")
        // Then
        #expect(storage.value(forKey: "huge") == nil)
        #expect(storage.value(forKey: "small") == "small")
    }

    @Test func replacingAValueKeepsTheCostAccountExact() {
        // Given
        let storage = makeStorage()
        storage.store("1234", forKey: "k")
        // When
        storage.store("12", forKey: "k")
        // Then
        #expect(storage.totalCost == 2)
        #expect(storage.count == 1)
    }

    @Test func aCostClosureOverridesTheDefaultCost() {
        // Given
        let storage = MemoryStorage<String, String>(
            configuration: .init(totalCostLimit: 2, sweepInterval: nil, cost: { _ in 1 }),
            clock: clock.cacheClock)
        // When
        for key in ["a", "b", "c"] { storage.store(String(repeating: key, count: 100), forKey: key) }
        // Then
        #expect(storage.count == 2)
    }

    @Test func anExpiredEntryIsNeverReturned() {
        // Given the origin's default of 5 minutes
        let storage = makeStorage()
        storage.store("v", forKey: "k")
        // When
        clock.advance(by: 300)
        // Then
        #expect(storage.value(forKey: "k") == nil)
        #expect(storage.count == 0)
        #expect(storage.statistics.expirations == 1)
    }

    @Test func readingWithCacheTimeRenewsForTheOriginalDuration() {
        // Given an entry of 100 seconds
        let storage = makeStorage()
        storage.store("v", forKey: "k", expiration: .seconds(100))
        clock.advance(by: 90)
        // When
        _ = storage.value(forKey: "k", extendingExpiration: .cacheTime)
        clock.advance(by: 90)
        // Then it lives 100 seconds from the read
        #expect(storage.value(forKey: "k", extendingExpiration: .none) == "v")
        clock.advance(by: 10)
        #expect(storage.value(forKey: "k") == nil)
    }

    @Test func readingWithNoneLeavesTheExpirationAlone() {
        // Given
        let storage = makeStorage()
        storage.store("v", forKey: "k", expiration: .seconds(100))
        clock.advance(by: 90)
        // When
        _ = storage.value(forKey: "k", extendingExpiration: .none)
        clock.advance(by: 10)
        // Then
        #expect(storage.value(forKey: "k") == nil)
    }

    @Test func readingWithNewExpirationAppliesItFromTheRead() {
        // Given
        let storage = makeStorage()
        storage.store("v", forKey: "k", expiration: .seconds(10))
        // When
        _ = storage.value(forKey: "k", extendingExpiration: .newExpiration(.days(1)))
        clock.advance(by: 86_399)
        // Then
        #expect(storage.value(forKey: "k", extendingExpiration: .none) == "v")
        clock.advance(by: 1)
        #expect(storage.value(forKey: "k") == nil)
    }

    @Test func neverDaysAndDateExpirationsHoldUntilTheirMoment() {
        // Given
        let storage = makeStorage()
        storage.store("forever", forKey: "never", expiration: .never)
        storage.store("two days", forKey: "days", expiration: .days(2))
        storage.store("fixed", forKey: "date", expiration: .date(clock.now.addingTimeInterval(60)))
        // When
        clock.advance(by: 60)
        // Then
        #expect(storage.value(forKey: "date") == nil)
        #expect(storage.value(forKey: "days", extendingExpiration: .none) == "two days")
        clock.advance(by: 2 * 86_400)
        #expect(storage.value(forKey: "days") == nil)
        #expect(storage.value(forKey: "never") == "forever")
    }

    @Test func removeExpiredRemovesOnlyExpiredEntries() {
        // Given
        let storage = makeStorage()
        storage.store("short", forKey: "short", expiration: .seconds(10))
        storage.store("long", forKey: "long", expiration: .seconds(1000))
        clock.advance(by: 10)
        // When
        let removed = storage.removeExpired()
        // Then
        #expect(removed == 1)
        #expect(storage.keys == ["long"])
    }

    @Test func thePeriodicSweepRemovesExpiredEntriesWithoutAnyRead() async {
        // Given a storage sweeping every 10 ms, reporting expirations
        let (expirations, report) = AsyncStream<String>.makeStream()
        let storage = MemoryStorage<String, String>(
            configuration: .init(
                sweepInterval: 0.01,
                onEvent: { event in
                    if case .expired(_, let key) = event { report.yield(key) }
                }),
            clock: clock.cacheClock)
        storage.store("v", forKey: "stale", expiration: .seconds(5))
        // When the clock passes the expiration
        clock.advance(by: 5)
        // Then the next sweep removes it
        var iterator = expirations.makeAsyncIterator()
        #expect(await iterator.next() == "stale")
        #expect(storage.count == 0)
    }

    @Test func containsDoesNotCountAsARead() {
        // Given
        let storage = makeStorage(countLimit: 2)
        storage.store("a", forKey: "a")
        storage.store("b", forKey: "b")
        // When
        #expect(storage.contains("a"))
        storage.store("c", forKey: "c")
        // Then "a" was not refreshed, so it went first
        #expect(!storage.contains("a"))
        #expect(storage.statistics.hits == 0)
    }

    @Test func statisticsCountHitsAndMisses() {
        // Given
        let storage = makeStorage()
        storage.store("v", forKey: "k")
        // When
        _ = storage.value(forKey: "k")
        _ = storage.value(forKey: "other")
        // Then
        #expect(storage.statistics.hits == 1)
        #expect(storage.statistics.misses == 1)
        #expect(storage.statistics.hitRatio == 0.5)
    }

    @Test func removeValueAndRemoveAllEmptyTheStorage() {
        // Given
        let storage = makeStorage()
        storage.store("a", forKey: "a")
        storage.store("b", forKey: "b")
        // When
        storage.removeValue(forKey: "a")
        // Then
        #expect(storage.keys == ["b"])
        storage.removeAll()
        #expect(storage.count == 0)
        #expect(storage.totalCost == 0)
    }

    @Test func trimKeepsTheMostRecentEntries() {
        // Given
        let storage = makeStorage()
        for key in ["a", "b", "c", "d"] { storage.store(key, forKey: key) }
        // When
        storage.trim(toCount: 2)
        // Then
        #expect(storage.keys == ["d", "c"])
    }

    @Test func evictionsAreReportedAsEvents() {
        // Given
        let log = EventLog()
        let storage = MemoryStorage<String, String>(
            configuration: .init(countLimit: 1, sweepInterval: nil, onEvent: log.record),
            clock: clock.cacheClock)
        // When
        storage.store("a", forKey: "a")
        storage.store("b", forKey: "b")
        _ = storage.value(forKey: "b")
        // Then
        #expect(log.all == [.evicted(.memory, key: "a"), .hit(.memory, key: "b")])
    }
}
