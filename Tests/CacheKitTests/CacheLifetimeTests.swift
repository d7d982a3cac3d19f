import Foundation
import TestSupport
import Testing

@testable import CacheKit

@Suite("Cache: lifetimes across tiers, from the loader and per tier")
struct CacheLifetimeTests {
    let folder: TemporaryFolder
    let clock = ManualClock()

    init() throws {
        folder = try TemporaryFolder.create("CacheKitTests")
    }

    func makeCache() throws -> (Cache<String>, MemoryStorage<String, String>, DiskStorage<String>) {
        try makeTieredCache(in: folder, clock: clock)
    }

    @Test func aPromotedDiskHitKeepsItsRemainingLifetime() async throws {
        // Given a 30-second entry on disk, read through a cache after a restart 20 seconds later
        try await DiskStorage<String>(in: folder, clock: clock).store(
            "v", forKey: "k", expiration: .seconds(30))
        clock.advance(by: 20)
        let (cache, memory, _) = try makeCache()
        #expect(await cache.lookup(forKey: "k")?.tier == .disk)
        // When 31 seconds pass without a read (the memory default would be 5 minutes)
        clock.advance(by: 31)
        // Then neither tier serves it
        #expect(memory.value(forKey: "k") == nil)
        #expect(await cache.value(forKey: "k") == nil)
    }

    @Test func aPromotedEntryIsRenewedInMemoryByItsOriginalDuration() async throws {
        // Given a 30-second entry promoted from disk
        let (cache, memory, disk) = try makeCache()
        try await disk.store("v", forKey: "k", expiration: .seconds(30))
        _ = await cache.value(forKey: "k")
        // When it is read from memory every 20 seconds
        for _ in 0..<3 {
            clock.advance(by: 20)
            #expect(await cache.lookup(forKey: "k")?.tier == .memory)
        }
        // Then it lives on in memory, 30 seconds at a time
        clock.advance(by: 29)
        #expect(memory.contains("k"))
    }

    @Test func aPromotedFixedDateStaysFixed() async throws {
        // Given
        let (cache, memory, disk) = try makeCache()
        try await disk.store("v", forKey: "k", expiration: .date(clock.now.addingTimeInterval(30)))
        _ = await cache.value(forKey: "k")
        // When
        clock.advance(by: 20)
        _ = await cache.value(forKey: "k")
        clock.advance(by: 11)
        // Then
        #expect(!memory.contains("k"))
    }

    @Test func theLoaderSetsTheEntrysExpiration() async throws {
        // Given a loader that says max-age=10
        let (cache, memory, disk) = try makeCache()
        // When
        let value = try await cache.lookup(forKey: "k") {
            LoadedValue("fresh", expiration: .seconds(10))
        }.value
        clock.advance(by: 11)
        // Then both tiers let it go after 10 seconds
        #expect(value == "fresh")
        #expect(memory.value(forKey: "k") == nil)
        #expect(disk.value(forKey: "k") == nil)
    }

    @Test func aStoreGivesMemoryAndDiskDifferentExpirations() async throws {
        // Given
        let (cache, memory, disk) = try makeCache()
        // When
        try await cache.store("v", forKey: "k", memoryExpiration: .seconds(10), diskExpiration: .seconds(100))
        clock.advance(by: 11)
        // Then memory has let it go, disk has not, and a read brings it back from disk
        #expect(!memory.contains("k"))
        #expect(disk.contains("k"))
        #expect(await cache.lookup(forKey: "k")?.tier == .disk)
    }

    @Test func aLoaderGivesMemoryAndDiskDifferentExpirations() async throws {
        // Given
        let (cache, memory, disk) = try makeCache()
        // When
        _ = try await cache.lookup(forKey: "k") {
            LoadedValue("v", memoryExpiration: .seconds(10), diskExpiration: .never)
        }
        clock.advance(by: 11)
        // Then
        #expect(!memory.contains("k"))
        #expect(disk.contains("k"))
    }
}
