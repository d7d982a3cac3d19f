import Foundation
import TestSupport
import Testing

@testable import CacheKit

/// The rule of Docs/CacheKit.md: work that holds a key's turn may wait for the cache's own calls and
/// for the loads it joins, and none of them queues behind a `removeAll` that waits for that turn.
@Suite("Cache: what may wait on what while removeAll waits")
struct RemoveAllWaitingRuleTests {
    func makeCache() async -> (Cache<String>, GatedTier) {
        let tier = GatedTier()
        let cache = Cache<String>(tiers: [MemoryStorage(configuration: .init(sweepInterval: nil)), tier])
        await tier.serve(cache)
        return (cache, tier)
    }

    /// A load of "b" started by a plain caller, whose loader waits at `gate`, then runs `afterGate`.
    func startLoadOfB(
        in cache: Cache<String>, gate: AsyncGate, afterGate: @escaping @Sendable () async -> Void
    ) -> Task<String, any Error> {
        Task {
            try await cache.value(forKey: "b") {
                await gate.enter()
                await afterGate()
                return "b"
            }
        }
    }

    /// Holds a read of "a" whose tier joins the load of "b", with `removeAll` waiting for "a", then lets
    /// the read go on and the loader run; returns whether all three finished, and the remover's task.
    func joinAndRemoveAll(
        _ cache: Cache<String>, _ tier: GatedTier, loadGate: AsyncGate, loader: Task<String, any Error>
    ) async -> Bool {
        await loadGate.waitUntilEntered()
        await tier.holdRead(of: "a", thenRead: "b", loadingOnAMiss: true)
        let reader = Task { await cache.value(forKey: "a") }
        await tier.readGate.waitUntilEntered()
        let remover = Task { try await cache.removeAll() }
        await waitWhile { cache.queuedForEveryLane < 1 }
        tier.readGate.open()
        await waitWhile { cache.waitingForLoads < 2 }  // the plain caller and the tier's read
        loadGate.open()
        return await Watchdog.finishes {
            _ = try? await loader.value
            _ = await reader.value
            _ = try? await remover.value
        }
    }

    @Test func aJoinedLoadFinishesAndIsNotStoredWhileRemoveAllWaits() async throws {
        // Given a load of "b" in flight, whose loader reads nothing through the cache
        let (cache, tier) = await makeCache()
        let loadGate = AsyncGate()
        let loader = startLoadOfB(in: cache, gate: loadGate) {}
        // When a tier's read of "a" joins it, and removeAll waits for "a"
        let finished = await joinAndRemoveAll(cache, tier, loadGate: loadGate, loader: loader)
        // Then all three finish: the load's store does not wait behind removeAll, which waits for the read
        #expect(finished, "the load, the read and removeAll waited for each other")
    }

    @Test func aJoinedLoadWhoseLoaderReadsThroughTheCacheFinishesWhileRemoveAllWaits() async throws {
        // Given a load of "b" started by a plain caller, whose loader then reads "c" through the cache
        let (cache, tier) = await makeCache()
        let loadGate = AsyncGate()
        let loader = startLoadOfB(in: cache, gate: loadGate) { _ = await cache.value(forKey: "c") }
        // When a tier's read of "a" joins that load and removeAll waits for "a"
        let finished = await joinAndRemoveAll(cache, tier, loadGate: loadGate, loader: loader)
        // Then the loader's read of "c" does not queue behind removeAll: all three finish
        try #require(finished, "the loader's read queued behind removeAll, which waited for the tier's read")
        #expect(try await loader.value == "b")
    }

    @Test func aJoinedLoadWhoseLoaderLoadsAnotherKeyFinishesWhileRemoveAllWaits() async throws {
        // Given a load of "b" whose loader loads "c" through the cache, whose loader reads "d"
        let (cache, tier) = await makeCache()
        let loadGate = AsyncGate()
        let loader = startLoadOfB(in: cache, gate: loadGate) {
            _ = try? await cache.value(forKey: "c") {
                _ = await cache.value(forKey: "d")
                return "c"
            }
        }
        // When a tier's read of "a" joins the load of "b" and removeAll waits for "a"
        let finished = await joinAndRemoveAll(cache, tier, loadGate: loadGate, loader: loader)
        // Then the inner load's read is let through as well: all three finish
        #expect(finished, "the inner load queued behind removeAll, which waited for the tier's read")
    }

    @Test func aLoadJoinedByAnotherLoadBeforeTheTierWaitedFinishesWhileRemoveAllWaits() async throws {
        // Given a load of "c" whose loader then reads "d", and a load of "b" whose loader joins it, both
        // started by plain callers before any tier waits
        let (cache, tier) = await makeCache()
        let innerGate = AsyncGate()
        let inner = Task {
            try await cache.value(forKey: "c") {
                await innerGate.enter()
                _ = await cache.value(forKey: "d")
                return "c"
            }
        }
        await innerGate.waitUntilEntered()
        let outerGate = AsyncGate()
        let outer = startLoadOfB(in: cache, gate: outerGate) {
            _ = try? await cache.value(forKey: "c") { "c" }
        }
        await outerGate.waitUntilEntered()
        outerGate.open()
        await waitWhile { cache.waitingForLoads < 2 }  // "c": its caller and the load of "b"
        // When a tier's read of "a" joins the load of "b", removeAll waits for "a", and "c"'s loader goes on
        await tier.holdRead(of: "a", thenRead: "b", loadingOnAMiss: true)
        let reader = Task { await cache.value(forKey: "a") }
        await tier.readGate.waitUntilEntered()
        let remover = Task { try await cache.removeAll() }
        await waitWhile { cache.queuedForEveryLane < 1 }
        tier.readGate.open()
        await waitWhile { cache.waitingForLoads < 4 }  // and "b": its caller and the tier's read
        innerGate.open()
        // Then the right to pass reaches the inner load through the outer one: all of them finish
        let finished = await Watchdog.finishes {
            _ = try? await inner.value
            _ = try? await outer.value
            _ = await reader.value
            _ = try? await remover.value
        }
        #expect(finished, "the inner load's read queued behind removeAll")
    }

    @Test func aCacheThatRanThatShapeStillAnswersEveryKeyAfterwards() async throws {
        // Given the shape above has run to its end
        let (cache, tier) = await makeCache()
        let loadGate = AsyncGate()
        let loader = startLoadOfB(in: cache, gate: loadGate) { _ = await cache.value(forKey: "c") }
        try #require(await joinAndRemoveAll(cache, tier, loadGate: loadGate, loader: loader))
        // When other keys are missed, loaded and removed
        let answered = await Watchdog.finishes {
            _ = await cache.value(forKey: "d")
            _ = try? await cache.value(forKey: "e") { "e" }
            _ = try? await cache.removeAll()
        }
        // Then none of them hangs
        #expect(answered, "a later call hung behind the earlier shape")
    }

    @Test func aLoadNoLaneHolderWaitsForQueuesBehindRemoveAll() async throws {
        // Given a load of "b" started by a plain caller, held before its loader reads "c"
        let (cache, tier) = await makeCache()
        await tier.holdRemoveAll()
        let loadGate = AsyncGate()
        let loader = startLoadOfB(in: cache, gate: loadGate) { _ = await cache.value(forKey: "c") }
        await loadGate.waitUntilEntered()
        // When removeAll runs, and the loader then reads "c"
        let remover = Task { try await cache.removeAll() }
        await tier.removeAllGate.waitUntilEntered()
        loadGate.open()
        await waitWhile { cache.queuedOnLane("c") < 1 }
        // Then that read waits its turn behind removeAll, and both finish once it ends
        tier.removeAllGate.open()
        let finished = await Watchdog.finishes {
            _ = try? await remover.value
            _ = try? await loader.value
        }
        #expect(finished)
    }

    @Test func aFrontMemoryHitIsServedWhileAnEarlierRemoveAllWaits() async throws {
        // Given "k" in the front memory tier, and a read of "a" holding its lane at the tier
        let (cache, tier) = await makeCache()
        try await cache.store("v", forKey: "k")
        await tier.holdRead(of: "a", thenRead: "other")
        let reader = Task { await cache.value(forKey: "a") }
        await tier.readGate.waitUntilEntered()
        // When removeAll waits for that lane, and "k" is read
        let remover = Task { try await cache.removeAll() }
        await waitWhile { cache.queuedForEveryLane < 1 }
        let value = await cache.value(forKey: "k")
        // Then the memory hit answers at once, as if it came before removeAll (Docs/CacheKit.md)
        #expect(value == "v")
        tier.readGate.open()
        _ = await reader.value
        try await remover.value
        #expect(await cache.value(forKey: "k") == nil)
    }
}
