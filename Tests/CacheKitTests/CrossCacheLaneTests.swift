import Foundation
import TestSupport
import Testing

@testable import CacheKit

/// A tier that, on a read of a key it was told of, waits at its gate, then runs an action (a call through
/// another cache, or back through its own): the seam where caches call each other.
actor RelayTier: CacheStorage {
    typealias Value = String
    private var entries: [String: String] = [:]
    private var relays: [String: @Sendable () async -> Void] = [:]
    /// Held before a relay runs.
    let gate = AsyncGate()

    /// On a read of `key`: wait at the gate, then run `action`.
    func relay(whenReading key: String, _ action: @escaping @Sendable () async -> Void) {
        relays[key] = action
    }

    func entry(forKey key: String) async -> CacheEntry<String>? {
        if let action = relays[key] {
            await gate.enter()
            await action()
        }
        return entries[key].map { CacheEntry(value: $0, expiration: .never) }
    }

    func store(_ value: String, forKey key: String, expiration: CacheExpiration?) async throws {
        entries[key] = value
    }

    func removeValue(forKey key: String) async throws { entries[key] = nil }

    func removeAll() async throws { entries = [:] }
}

/// Caches whose tiers and loaders read, store, remove and load through each other while one or two of
/// them run `removeAll`: calls that would finish without it finish with it (Docs/Architecture.md, "Why
/// `removeAll` adds no wait cycle"), so each scenario finishes; a deadlock fails the test after ten
/// seconds instead of hanging the run.
@Suite("Cache: caches that call each other while removeAll waits")
struct CrossCacheLaneTests {
    /// A cache in front of its own relay tier.
    static func makeCache() -> (Cache<String>, RelayTier) {
        let tier = RelayTier()
        return (Cache<String>(tiers: [MemoryStorage(configuration: .init(sweepInterval: nil)), tier]), tier)
    }

    /// Reads `key` from `cache` (whose tier relays, held at its gate), lets `target.removeAll()` queue
    /// for every lane, then lets the relay run; whether all of it finished within ten seconds.
    func finishesWhileRemoveAllWaits(
        reading key: String, from cache: Cache<String>, heldAt tier: RelayTier,
        removingAllOf target: Cache<String>
    ) async -> Bool {
        let reader = Task { await cache.value(forKey: key) }
        await tier.gate.waitUntilEntered()
        let remover = Task { try await target.removeAll() }
        await waitWhile { target.queuedForEveryLane < 1 }
        tier.gate.open()
        return await Watchdog.finishes(within: 10) {
            _ = await reader.value
            _ = try? await remover.value
        }
    }

    @Test func aTierLoadingFromAnotherCacheWhoseLoaderReadsBackFinishes() async {
        // Given images' tier, on "a", loads "m" from meta, whose loader reads "b" back through images
        let (images, imagesTier) = Self.makeCache()
        let (meta, _) = Self.makeCache()
        await imagesTier.relay(whenReading: "a") {
            _ = try? await meta.value(forKey: "m") {
                _ = await images.value(forKey: "b")
                return "m"
            }
        }
        // When images.removeAll() waits for "a"'s lane
        let finished = await finishesWhileRemoveAllWaits(
            reading: "a", from: images, heldAt: imagesTier, removingAllOf: images)
        // Then the loader's read of "b" passes it: all of them finish
        #expect(finished, "the loader's read queued behind removeAll, which waited for the tier")
    }

    @Test func aTierReadingAnotherCacheWhoseTierReadsBackFinishes() async {
        // Given images' tier, on "a", reads "m" from meta, whose tier, on "m", reads "b" from images
        let (images, imagesTier) = Self.makeCache()
        let (meta, metaTier) = Self.makeCache()
        metaTier.gate.open()
        await imagesTier.relay(whenReading: "a") { _ = await meta.value(forKey: "m") }
        await metaTier.relay(whenReading: "m") { _ = await images.value(forKey: "b") }
        // When images.removeAll() waits for "a"'s lane
        let finished = await finishesWhileRemoveAllWaits(
            reading: "a", from: images, heldAt: imagesTier, removingAllOf: images)
        // Then the read back through images passes it
        #expect(finished, "meta's tier queued behind images' removeAll, which waited for images' tier")
    }

    @Test func threeCachesInARingFinish() async {
        // Given images → meta (a load) → posters (a read) → images (a read), each through a tier
        let (images, imagesTier) = Self.makeCache()
        let (meta, _) = Self.makeCache()
        let (posters, postersTier) = Self.makeCache()
        postersTier.gate.open()
        await imagesTier.relay(whenReading: "a") {
            _ = try? await meta.value(forKey: "m") {
                _ = await posters.value(forKey: "p")
                return "m"
            }
        }
        await postersTier.relay(whenReading: "p") { _ = await images.value(forKey: "b") }
        // When images.removeAll() waits for "a"'s lane
        let finished = await finishesWhileRemoveAllWaits(
            reading: "a", from: images, heldAt: imagesTier, removingAllOf: images)
        // Then the ring closes without a wait cycle
        #expect(finished, "a read three caches down queued behind images' removeAll")
    }

    @Test func removeAllOfTheSecondCacheWhileItsTierCallsBackFinishes() async {
        // Given meta's tier, on "m", reads "b" from images, whose tier, on "b", reads "c" from meta
        let (images, imagesTier) = Self.makeCache()
        let (meta, metaTier) = Self.makeCache()
        imagesTier.gate.open()
        await metaTier.relay(whenReading: "m") { _ = await images.value(forKey: "b") }
        await imagesTier.relay(whenReading: "b") { _ = await meta.value(forKey: "c") }
        // When meta.removeAll() waits for "m"'s lane
        let finished = await finishesWhileRemoveAllWaits(
            reading: "m", from: meta, heldAt: metaTier, removingAllOf: meta)
        // Then the read of "c", two tiers down, passes it
        #expect(finished, "images' tier queued behind meta's removeAll, which waited for meta's tier")
    }

    @Test func storesAndRemovesThroughAnotherCacheFinish() async {
        // Given images' tier, on "a", stores into meta and removes from images through meta's loader
        let (images, imagesTier) = Self.makeCache()
        let (meta, _) = Self.makeCache()
        await imagesTier.relay(whenReading: "a") {
            try? await meta.store("x", forKey: "s")
            _ = try? await meta.value(forKey: "m") {
                try? await images.store("y", forKey: "b")
                try? await images.removeValue(forKey: "c")
                return "m"
            }
        }
        // When images.removeAll() waits for "a"'s lane
        let finished = await finishesWhileRemoveAllWaits(
            reading: "a", from: images, heldAt: imagesTier, removingAllOf: images)
        // Then the loader's store and remove pass it
        #expect(finished, "a store or remove through the loader queued behind removeAll")
    }

    @Test func aLoadStartedElsewhereAndJoinedByATierFinishes() async {
        // Given a load of "m" in meta started by a plain caller, whose loader reads "b" from images once
        // its gate opens
        let (images, imagesTier) = Self.makeCache()
        let (meta, _) = Self.makeCache()
        let loadGate = AsyncGate()
        let loader = Task {
            try await meta.value(forKey: "m") {
                await loadGate.enter()
                _ = await images.value(forKey: "b")
                return "m"
            }
        }
        await loadGate.waitUntilEntered()
        // And images' tier, on "a", joins that load
        await imagesTier.relay(whenReading: "a") { _ = try? await meta.value(forKey: "m") { "other" } }
        let reader = Task { await images.value(forKey: "a") }
        await imagesTier.gate.waitUntilEntered()
        // When images.removeAll() waits for "a", the tier joins the load, and the loader goes on
        let remover = Task { try await images.removeAll() }
        await waitWhile { images.queuedForEveryLane < 1 }
        imagesTier.gate.open()
        await waitWhile { meta.waitingForLoads < 2 }
        loadGate.open()
        // Then the tier lends the load its right to pass images' removeAll: all of them finish
        let finished = await Watchdog.finishes(within: 10) {
            _ = try? await loader.value
            _ = await reader.value
            _ = try? await remover.value
        }
        #expect(finished, "the load another caller started queued behind images' removeAll")
    }

    @Test func aHolderOfAnotherCacheThatTheFirstWaitsForPassesItsRemoveAll() async {
        // Given meta's "m" held by a plain reader whose tier reads "b" from images, and images' "a" held
        // by a reader whose tier reads "m" from meta (and so waits behind the first reader)
        let (images, imagesTier) = Self.makeCache()
        let (meta, metaTier) = Self.makeCache()
        await imagesTier.relay(whenReading: "a") { _ = await meta.value(forKey: "m") }
        await metaTier.relay(whenReading: "m") { _ = await images.value(forKey: "b") }
        let metaReader = Task { await meta.value(forKey: "m") }
        await metaTier.gate.waitUntilEntered()
        let imagesReader = Task { await images.value(forKey: "a") }
        await imagesTier.gate.waitUntilEntered()
        // When images.removeAll() waits for "a", whose reader waits behind meta's reader, which then
        // reads through images
        let remover = Task { try await images.removeAll() }
        await waitWhile { images.queuedForEveryLane < 1 }
        imagesTier.gate.open()
        await waitWhile { meta.queuedOnLane("m") < 1 }
        metaTier.gate.open()
        // Then meta's reader, a lane holder of another cache, passes images' removeAll: all finish
        let finished = await Watchdog.finishes(within: 10) {
            _ = await metaReader.value
            _ = await imagesReader.value
            _ = try? await remover.value
        }
        #expect(
            finished,
            "meta's reader queued behind images' removeAll, which waited for a reader waiting for it")
    }

    @Test func twoCachesRemovingAllWhileTheirTiersReadEachOtherFinish() async {
        // Given images' "a" whose tier reads meta's "k", and meta's "b" whose tier reads images' "j", both
        // held at their gates
        let (images, imagesTier) = Self.makeCache()
        let (meta, metaTier) = Self.makeCache()
        await imagesTier.relay(whenReading: "a") { _ = await meta.value(forKey: "k") }
        await metaTier.relay(whenReading: "b") { _ = await images.value(forKey: "j") }
        let imagesReader = Task { await images.value(forKey: "a") }
        await imagesTier.gate.waitUntilEntered()
        let metaReader = Task { await meta.value(forKey: "b") }
        await metaTier.gate.waitUntilEntered()
        // When both caches' removeAll wait, then both tiers read through the other cache
        let removers = [Task { try await images.removeAll() }, Task { try await meta.removeAll() }]
        await waitWhile { images.queuedForEveryLane < 1 || meta.queuedForEveryLane < 1 }
        imagesTier.gate.open()
        metaTier.gate.open()
        // Then each read passes the other cache's removeAll: all finish
        let finished = await Watchdog.finishes(within: 10) {
            _ = await imagesReader.value
            _ = await metaReader.value
            for remover in removers { _ = try? await remover.value }
        }
        #expect(finished, "each tier's read queued behind the other cache's removeAll")
    }

    @Test func aTierOfAnotherCacheThatNothingWaitsForQueuesBehindRemoveAll() async {
        // Given images' "a" held by a plain reader, and images.removeAll() waiting for it
        let (images, imagesTier) = Self.makeCache()
        let (meta, metaTier) = Self.makeCache()
        metaTier.gate.open()
        let order = Recorder<String>()
        await metaTier.relay(whenReading: "m") {
            _ = await images.value(forKey: "x")
            order.append("meta's read of images")
        }
        await imagesTier.relay(whenReading: "a") {}
        let imagesReader = Task { await images.value(forKey: "a") }
        await imagesTier.gate.waitUntilEntered()
        let remover = Task {
            try await images.removeAll()
            order.append("removeAll")
        }
        await waitWhile { images.queuedForEveryLane < 1 }
        // When meta's tier, holding a lane of meta that images' reader does not wait for, reads images
        let metaReader = Task { await meta.value(forKey: "m") }
        let queued = await eventually(within: .seconds(10)) { images.queuedOnLane("x") == 1 }
        imagesTier.gate.open()
        let finished = await Watchdog.finishes(within: 10) {
            _ = await imagesReader.value
            _ = try? await remover.value
            _ = await metaReader.value
        }
        // Then its read queued behind removeAll, as any caller's does, and ran after it
        #expect(queued, "a lane holder of another cache passed a removeAll that did not wait for it")
        #expect(finished)
        #expect(order.values == ["removeAll", "meta's read of images"])
    }

    @Test func joiningALoadAfterItFinishedLeavesNoLinkBehind() async {
        // Given a load's token, its load run and finished
        let lanes = KeyLanes()
        let token = lanes.makeSponsoredToken()
        lanes.endSponsorship(token)
        // When a task holding a lane waits for it late (it joined just before the load ended)
        await lanes.run("a") { lanes.sponsor(token) }
        // Then nothing stays linked to the finished load
        #expect(LaneRegistry.isLinked(token) == false)
    }

    @Test func aRunningLoadIsLinkedToItsWaitersUntilItEnds() async {
        // Given a running load, and a lane holder that waits for it
        let lanes = KeyLanes()
        let token = lanes.makeSponsoredToken()
        await lanes.run("a") { lanes.sponsor(token) }
        let linked = LaneRegistry.isLinked(token)
        // When the load ends
        lanes.endSponsorship(token)
        // Then it was linked while it ran, and is not after
        #expect(linked)
        #expect(LaneRegistry.isLinked(token) == false)
    }
}
