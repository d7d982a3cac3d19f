import Foundation
import TestSupport
import Testing

@testable import CacheKit

@Suite("Cache: memory in front of disk")
struct CacheTests {
    let folder: TemporaryFolder
    let clock = ManualClock()

    init() throws {
        folder = try TemporaryFolder.create("CacheKitTests")
    }

    func makeCache() throws -> Cache<String> {
        try makeTieredCache(in: folder, clock: clock).cache
    }

    @Test func aStoreWritesThroughToBothTiers() async throws {
        // Given
        let cache = try makeCache()
        // When
        try await cache.store("v", forKey: "k")
        // Then
        #expect(cache.memory?.value(forKey: "k") == "v")
        #expect(cache.disk?.value(forKey: "k") == "v")
    }

    @Test func aDiskHitIsPromotedToMemory() async throws {
        // Given an entry only on disk
        let cache = try makeCache()
        try await cache.disk?.store("v", forKey: "k")
        // When
        let first = await cache.lookup(forKey: "k")
        let second = await cache.lookup(forKey: "k")
        // Then
        #expect(first?.tier == .disk)
        #expect(second?.tier == .memory)
        #expect(second?.value == "v")
    }

    @Test func aMissInBothTiersIsNil() async throws {
        // Given
        let cache = try makeCache()
        // Then
        #expect(await cache.value(forKey: "nothing") == nil)
        #expect(await !cache.contains("nothing"))
    }

    @Test func aNewCacheOverTheSameFolderFindsEarlierEntries() async throws {
        // Given
        try await makeCache().store("v", forKey: "k")
        // When
        let reopened = try makeCache()
        // Then
        #expect(await reopened.lookup(forKey: "k")?.tier == .disk)
    }

    @Test func removeValueAndRemoveAllClearBothTiers() async throws {
        // Given
        let cache = try makeCache()
        try await cache.store("a", forKey: "a")
        try await cache.store("b", forKey: "b")
        // When
        try await cache.removeValue(forKey: "a")
        // Then
        #expect(await cache.value(forKey: "a") == nil)
        #expect(await cache.count == 1)
        try await cache.removeAll()
        #expect(await cache.value(forKey: "b") == nil)
        #expect(await cache.totalSize == 0)
    }

    @Test func removeExpiredClearsBothTiers() async throws {
        // Given
        let cache = try makeCache()
        try await cache.store("v", forKey: "k", expiration: .seconds(5))
        clock.advance(by: 5)
        // When
        let removed = await cache.removeExpired()
        // Then
        #expect(removed == 2)
        #expect(folder.fileNames.isEmpty)
    }

    @Test func concurrentMissesRunTheLoaderOnce() async throws {
        // Given a loader held at a gate until all 20 callers have joined
        let cache = try makeCache()
        let calls = EventLog()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let load: @Sendable () async throws -> LoadedValue<String> = {
            calls.record(.miss(.memory, key: "load"))
            for await _ in gate { break }
            return LoadedValue("poster")
        }
        // When
        let results = try await withThrowingTaskGroup(of: CachedValue<String>.self) { group in
            for _ in 0..<20 { group.addTask { try await cache.lookup(forKey: "k", orLoad: load) } }
            await waitWhile { cache.waitingForLoads < 20 }
            open.yield()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Then
        #expect(calls.all.count == 1)
        #expect(results.count == 20)
        #expect(results.allSatisfy { $0.value == "poster" && $0.wasLoaded })
        #expect(await cache.lookup(forKey: "k")?.tier == .memory)
        #expect(cache.disk?.value(forKey: "k") == "poster")
    }

    @Test func aLoadThatFinishesBetweenAMissAndJoiningIsNotRepeated() async throws {
        // Given a first caller held just after its miss, before it joins the in-flight loads
        let cache = try makeCache()
        let loads = EventLog()
        let load: @Sendable () async throws -> LoadedValue<String> = {
            loads.record(.miss(.memory, key: "k"))
            return LoadedValue("v")
        }
        let (held, holding) = AsyncStream<Void>.makeStream()
        let (release, releasing) = AsyncStream<Void>.makeStream()
        let calls = EventLog()
        cache.setBeforeJoiningLoad { _ in
            calls.record(.hit(.memory, key: "hook"))
            guard calls.all.count == 1 else { return }
            holding.yield()
            for await _ in release { break }
        }
        let first = Task { try await cache.lookup(forKey: "k", orLoad: load) }
        var heldIterator = held.makeAsyncIterator()
        _ = await heldIterator.next()
        // When a second caller misses, loads and finishes while the first is held
        let second = try await cache.lookup(forKey: "k", orLoad: load)
        releasing.yield()
        let firstResult = try await first.value
        // Then the first caller finds the loaded value instead of loading again
        #expect(second.wasLoaded)
        #expect(firstResult.value == "v")
        #expect(firstResult.tier == .memory)
        #expect(loads.all.count == 1)
    }

    @Test func aFailedLoadReachesEveryCallerAndCachesNothing() async throws {
        // Given
        struct Offline: Error {}
        let cache = try makeCache()
        // When
        let error = await #expect(throws: Offline.self) {
            _ = try await cache.value(forKey: "k") { throw Offline() }
        }
        // Then
        #expect(error != nil)
        #expect(await cache.value(forKey: "k") == nil)
        // And the next call loads again
        #expect(try await cache.value(forKey: "k") { "second try" } == "second try")
    }

    @Test func concurrentStoresAndReadsFromManyTasksLoseNothing() async throws {
        // Given
        let cache = try makeCache()
        // When
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var mismatches = 0
                    for index in 0..<40 {
                        let key = "\(task)-\(index)"
                        do { try await cache.store(key, forKey: key) } catch { mismatches += 1 }
                        if await cache.value(forKey: key) != key { mismatches += 1 }
                    }
                    return mismatches
                }
            }
            return await group.reduce(0, +)
        }
        // Then
        #expect(mismatches == 0)
        #expect(await cache.count == 320)
    }

    @Test func statisticsAreKeptPerTier() async throws {
        // Given
        let cache = try makeCache()
        try await cache.disk?.store("v", forKey: "k")
        // When
        _ = await cache.value(forKey: "k")
        _ = await cache.value(forKey: "k")
        // Then
        #expect(cache.statistics[.memory]?.hits == 1)
        #expect(cache.statistics[.memory]?.misses == 1)
        #expect(cache.statistics[.disk]?.hits == 1)
    }
}
