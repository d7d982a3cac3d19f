import Foundation
import TestSupport
import Testing

@testable import CacheKit

@Suite("DiskStorage: events name keys; expired entries are swept")
struct DiskEventsAndSweepTests {
    let folder: TemporaryFolder
    let clock = ManualClock()

    init() throws {
        folder = try TemporaryFolder.create("CacheKitTests")
    }

    @Test func evictionsNameTheUsersKey() throws {
        // Given
        let log = EventLog()
        let storage = try DiskStorage<String>(in: folder, clock: clock, countLimit: 2, events: log)
        // When
        for key in ["movie/1", "movie/2", "movie/3"] { try storage.store(key, forKey: key) }
        // Then
        #expect(log.all.contains(.evicted(.disk, key: "movie/1")))
    }

    @Test func expirationsFoundByASweepNameTheUsersKey() throws {
        // Given
        let log = EventLog()
        let storage = try DiskStorage<String>(in: folder, clock: clock, events: log)
        try storage.store("v", forKey: "poster/42", expiration: .seconds(5))
        clock.advance(by: 6)
        // When
        storage.removeExpired()
        // Then
        #expect(log.all == [.expired(.disk, key: "poster/42")])
    }

    @Test func removalsNameTheUsersKey() throws {
        // Given
        let log = EventLog()
        let storage = try DiskStorage<String>(in: folder, clock: clock, events: log)
        try storage.store("v", forKey: "a")
        try storage.store("v", forKey: "b")
        // When
        try storage.removeValue(forKey: "a")
        try storage.removeAll()
        // Then
        #expect(log.all == [.removed(.disk, key: "a"), .removed(.disk, key: "b")])
    }

    @Test func eventsAfterARestartStillNameTheUsersKey() throws {
        // Given entries written by an earlier storage, one of them expired by now
        try DiskStorage<String>(in: folder, clock: clock).store("v", forKey: "old", expiration: .seconds(5))
        try DiskStorage<String>(in: folder, clock: clock).store("v", forKey: "kept")
        clock.advance(by: 6)
        // When a new storage opens the folder and removes everything
        let log = EventLog()
        let storage = try DiskStorage<String>(in: folder, clock: clock, events: log)
        try storage.removeAll()
        // Then the sweep on open named the expired key, and removeAll the other
        #expect(log.all == [.expired(.disk, key: "old"), .removed(.disk, key: "kept")])
    }

    @Test func expiredEntriesAreRemovedWhenTheIndexIsBuilt() throws {
        // Given
        try DiskStorage<String>(in: folder, clock: clock).store("v", forKey: "k", expiration: .seconds(5))
        clock.advance(by: 6)
        // When
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        // Then
        #expect(storage.count == 0)
        #expect(folder.fileNames.isEmpty)
        #expect(storage.statistics.expirations == 1)
    }

    @Test func thePeriodicSweepRemovesExpiredEntriesWithoutAnyRead() async throws {
        // Given a storage sweeping every 10 ms, and an entry that has expired by the injected clock
        let (expired, reporting) = AsyncStream<CacheEvent>.makeStream()
        let storage = try DiskStorage<String>(
            configuration: .init(
                directory: folder.url, sweepInterval: 0.01, onEvent: { event in reporting.yield(event) }),
            clock: clock.cacheClock)
        try await storage.store("v", forKey: "k", expiration: .seconds(5))
        clock.advance(by: 6)
        // When the next sweep runs
        let swept = await Watchdog.finishes(within: 30) {
            for await event in expired where event == .expired(.disk, key: "k") { break }
        }
        // Then
        #expect(swept)
        #expect(!FileManager.default.fileExists(atPath: storage.fileURL(forKey: "k").path))
    }

    @Test(arguments: [Double.nan, .infinity, -1, 0, 1e300])
    func anySweepIntervalMakesAWorkingDiskStorage(interval: Double) throws {
        // Given
        let storage = try DiskStorage<String>(
            configuration: .init(directory: folder.url, sweepInterval: interval), clock: clock.cacheClock)
        // When
        try storage.store("v", forKey: "k")
        // Then
        #expect(storage.value(forKey: "k") == "v")
    }
}
