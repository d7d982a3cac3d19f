import Foundation
import TestSupport
import Testing

@testable import CacheKit

/// The last completed store or remove of a key wins in both tiers: each interleaving is held open with a
/// hook, then released.
@Suite("Cache: the last write wins across tiers")
struct CacheOrderingTests {
    let folder: TemporaryFolder
    let clock = ManualClock()

    init() throws {
        folder = try TemporaryFolder.create("CacheKitTests")
    }

    func makeCache() throws -> (Cache<String>, MemoryStorage<String, String>, DiskStorage<String>) {
        try makeTieredCache(in: folder, clock: clock)
    }

    /// Holds the first reader that found `key` on disk, before it moves the value into memory.
    func holdPromotion(of cache: Cache<String>) -> AsyncGate {
        let gate = AsyncGate()
        cache.setBeforePromoting { _ in await gate.enter() }
        return gate
    }

    @Test func aStoreDuringAReadsPromotionIsNotOverwrittenByTheOldValue() async throws {
        // Given "old" only on disk, and a reader holding it just before promoting it
        let (cache, memory, disk) = try makeCache()
        try await disk.store("old", forKey: "k")
        let gate = holdPromotion(of: cache)
        let reader = Task { await cache.value(forKey: "k") }
        await gate.waitUntilEntered()
        // When a store of "new" is called meanwhile, and the reader is let go
        let writer = Task { try await cache.store("new", forKey: "k") }
        await waitWhile { cache.queuedOnLane("k") < 1 }
        gate.open()
        let read = await reader.value
        try await writer.value
        // Then the reader saw "old", which was current when it read, and both tiers hold "new"
        #expect(read == "old")
        #expect(memory.value(forKey: "k") == "new")
        #expect(disk.value(forKey: "k") == "new")
        #expect(await cache.value(forKey: "k") == "new")
    }

    @Test func aRemoveDuringAReadsPromotionIsNotUndone() async throws {
        // Given
        let (cache, memory, disk) = try makeCache()
        try await disk.store("old", forKey: "k")
        let gate = holdPromotion(of: cache)
        let reader = Task { await cache.value(forKey: "k") }
        await gate.waitUntilEntered()
        // When
        let remover = Task { try await cache.removeValue(forKey: "k") }
        await waitWhile { cache.queuedOnLane("k") < 1 }
        gate.open()
        _ = await reader.value
        try await remover.value
        // Then
        #expect(memory.value(forKey: "k") == nil)
        #expect(await cache.value(forKey: "k") == nil)
    }

    @Test func removeAllDuringAReadsPromotionIsNotUndone() async throws {
        // Given
        let (cache, memory, disk) = try makeCache()
        try await disk.store("old", forKey: "k")
        let gate = holdPromotion(of: cache)
        let reader = Task { await cache.value(forKey: "k") }
        await gate.waitUntilEntered()
        // When
        let remover = Task { try await cache.removeAll() }
        await waitWhile { cache.queuedForEveryLane < 1 }
        gate.open()
        _ = await reader.value
        try await remover.value
        // Then
        #expect(memory.count == 0)
        #expect(await cache.value(forKey: "k") == nil)
    }

    /// A load held until `release` is opened; returns the task running it once the loader is running.
    func heldLoad(_ cache: Cache<String>, release: AsyncGate) async -> Task<String, any Error> {
        let started = AsyncGate()
        let load = Task {
            try await cache.value(forKey: "k") {
                await started.enter()
                await release.enter()
                return "loaded"
            }
        }
        await started.waitUntilEntered()
        started.open()
        return load
    }

    @Test func aStoreDuringALoadWinsOverTheLoadedValue() async throws {
        // Given a load in flight
        let (cache, memory, disk) = try makeCache()
        let release = AsyncGate()
        let load = await heldLoad(cache, release: release)
        // When "new" is stored before the load finishes
        try await cache.store("new", forKey: "k")
        release.open()
        let loaded = try await load.value
        // Then the caller gets what it loaded, and the cache keeps "new"
        #expect(loaded == "loaded")
        #expect(memory.value(forKey: "k") == "new")
        #expect(disk.value(forKey: "k") == "new")
    }

    @Test func aRemoveDuringALoadIsNotUndoneByTheLoadedValue() async throws {
        // Given
        let (cache, _, disk) = try makeCache()
        let release = AsyncGate()
        let load = await heldLoad(cache, release: release)
        // When
        try await cache.removeValue(forKey: "k")
        release.open()
        _ = try await load.value
        // Then
        #expect(await cache.value(forKey: "k") == nil)
        #expect(disk.count == 0)
    }

    @Test func storesOfOneKeyFromManyTasksLeaveBothTiersAgreeing() async throws {
        // Given
        let (cache, memory, disk) = try makeCache()
        // When 16 tasks store and remove one key at once
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    if task % 4 == 3 {
                        try? await cache.removeValue(forKey: "k")
                    } else {
                        try? await cache.store("v\(task)", forKey: "k")
                    }
                }
            }
        }
        // Then whichever call came last, memory and disk say the same
        #expect(memory.value(forKey: "k") == disk.value(forKey: "k"))
    }
}
