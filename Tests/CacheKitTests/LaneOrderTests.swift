import Foundation
import TestSupport
import Testing

@testable import CacheKit

/// A tier that can hold its calls at gates, and read another key through the cache it serves.
actor GatedTier: CacheStorage {
    typealias Value = String
    private var entries: [String: String] = [:]
    private var cache: Cache<String>?
    /// Held before answering a read of `heldKey`, which then reads `nestedKey` through the cache.
    let readGate = AsyncGate()
    let removeAllGate = AsyncGate()
    private var heldKey: String?
    private var nestedKey: String?
    private var nestedLoads = false
    /// When set, a read of `heldKey` starts a task that reads `nestedKey` later, once `laterGate` opens.
    let laterGate = AsyncGate()
    private var readsLater = false
    private(set) var laterRead: Task<Void, Never>?

    func readLater(whenReading key: String, read nested: String) {
        heldKey = key
        nestedKey = nested
        readsLater = true
    }
    private var holdsRemoveAll = false

    func serve(_ cache: Cache<String>) { self.cache = cache }
    func holdRead(of key: String, thenRead nested: String, loadingOnAMiss: Bool = false) {
        heldKey = key
        nestedKey = nested
        nestedLoads = loadingOnAMiss
    }
    func holdRemoveAll() { holdsRemoveAll = true }

    func entry(forKey key: String) async -> CacheEntry<String>? {
        if key == heldKey, readsLater, let nestedKey, let cache {
            let gate = laterGate
            laterRead = Task {
                await gate.enter()
                _ = await cache.value(forKey: nestedKey)
            }
        } else if key == heldKey, let nestedKey, let cache {
            await readGate.enter()
            if nestedLoads {
                _ = try? await cache.value(forKey: nestedKey) { "nested load" }
            } else {
                _ = await cache.value(forKey: nestedKey)
            }
        }
        return entries[key].map { CacheEntry(value: $0, expiration: .never) }
    }

    func store(_ value: String, forKey key: String, expiration: CacheExpiration?) async throws {
        entries[key] = value
    }

    func removeValue(forKey key: String) async throws { entries[key] = nil }

    func removeAll() async throws {
        if holdsRemoveAll { await removeAllGate.enter() }
        entries = [:]
    }
}

@Suite("Cache: the order of operations on one key")
struct LaneOrderTests {
    func makeCache() async -> (Cache<String>, GatedTier) {
        let tier = GatedTier()
        let cache = Cache<String>(tiers: [MemoryStorage(configuration: .init(sweepInterval: nil)), tier])
        await tier.serve(cache)
        return (cache, tier)
    }

    @Test func removeAllWhileATierReadsAnotherKeyThroughTheSameCacheFinishes() async throws {
        // Given a read of "a" whose tier reads "b" through the same cache, held at the tier
        let (cache, tier) = await makeCache()
        await tier.holdRead(of: "a", thenRead: "b")
        let reader = Task { await cache.value(forKey: "a") }
        await tier.readGate.waitUntilEntered()
        // When removeAll waits for every lane, and the read goes on to "b"
        let remover = Task { try await cache.removeAll() }
        await waitWhile { cache.queuedForEveryLane < 1 }
        tier.readGate.open()
        // Then both finish (the read of "b" does not queue behind removeAll, which waits for "a")
        let finished = await Watchdog.finishes {
            _ = await reader.value
            _ = try? await remover.value
        }
        #expect(finished, "the read and removeAll waited for each other")
    }

    @Test func aTaskStartedUnderALaneThatIsReleasedQueuesBehindRemoveAll() async throws {
        // Given a task started by a tier while its read held the lane of "a", which is released since
        let (cache, tier) = await makeCache()
        await tier.readLater(whenReading: "a", read: "b")
        _ = await cache.value(forKey: "a")
        let later = try #require(await tier.laterRead)
        // When removeAll runs, and the task then reads "b"
        await tier.holdRemoveAll()
        let remover = Task { try await cache.removeAll() }
        await tier.removeAllGate.waitUntilEntered()
        tier.laterGate.open()
        await waitWhile { cache.queuedOnLane("b") < 1 }
        tier.removeAllGate.open()
        // Then the task waited its turn and finishes after removeAll
        let finished = await Watchdog.finishes {
            _ = try? await remover.value
            await later.value
        }
        #expect(finished, "the read of b was stranded")
    }

    @Test func aStoreCalledBetweenTwoRemoveAllsIsRemovedBySecond() async throws {
        // Given a removeAll in progress, then a store of "k", then a second removeAll
        let (cache, tier) = await makeCache()
        await tier.holdRemoveAll()
        let first = Task { try await cache.removeAll() }
        await tier.removeAllGate.waitUntilEntered()
        let store = Task { try await cache.store("v", forKey: "k") }
        await waitWhile { cache.queuedOnLane("k") < 1 }
        let second = Task { try await cache.removeAll() }
        await waitWhile { cache.queuedForEveryLane < 1 }
        // When the first removeAll finishes
        tier.removeAllGate.open()
        try await first.value
        try await store.value
        try await second.value
        // Then they ran in the order they were called: nothing is left
        #expect(await cache.value(forKey: "k") == nil)
    }

    @Test func aCancelledCallerWaitingForItsLaneLeavesAtOnceWithoutLoading() async throws {
        // Given a read holding the lane of "k" at its tier
        let (cache, tier) = await makeCache()
        await tier.holdRead(of: "k", thenRead: "other")
        let reader = Task { await cache.value(forKey: "k") }
        await tier.readGate.waitUntilEntered()
        let loads = Recorder<String>()
        let caller = Task {
            try await cache.value(forKey: "k") {
                loads.append("load")
                return "loaded"
            }
        }
        await waitWhile { cache.queuedOnLane("k") < 1 }
        // When the waiting caller is cancelled, the lane still held
        caller.cancel()
        let left = await Watchdog.finishes { _ = await caller.result }
        // Then it left at once, with CancellationError, and never loaded
        #expect(left, "the cancelled caller waited for the lane")
        tier.readGate.open()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(loads.values.isEmpty)
        _ = await reader.value
    }
}

/// A memory tier in front of a tier that counts the reads of each key.
actor CountingTier: CacheStorage {
    typealias Value = String
    private var entries: [String: String] = [:]
    private(set) var reads: [String: Int] = [:]

    func entry(forKey key: String) async -> CacheEntry<String>? {
        reads[key, default: 0] += 1
        return entries[key].map { CacheEntry(value: $0, expiration: .never) }
    }
    func store(_ value: String, forKey key: String, expiration: CacheExpiration?) async throws {
        entries[key] = value
    }
    func removeValue(forKey key: String) async throws { entries[key] = nil }
    func removeAll() async throws { entries = [:] }
}

@Suite("Cache: what happens between a miss and its load")
struct MissThenLoadTests {
    /// A cache whose callers for "k" are held between their miss and joining a load.
    func makeHeldCache() -> (Cache<String>, CountingTier, AsyncGate) {
        let tier = CountingTier()
        let cache = Cache<String>(tiers: [MemoryStorage(configuration: .init(sweepInterval: nil)), tier])
        let gate = AsyncGate()
        cache.setBeforeJoiningLoad { key in if key == "k" { await gate.enter() } }
        return (cache, tier, gate)
    }

    @Test func aStoreBetweenAMissAndItsLoadIsNotOverwrittenByTheLoad() async throws {
        // Given a caller that missed "k" and is about to load it
        let (cache, _, gate) = makeHeldCache()
        let loads = Recorder<String>()
        let caller = Task {
            try await cache.value(forKey: "k") {
                loads.append("load")
                return "loaded, older"
            }
        }
        await gate.waitUntilEntered()
        // When a store of "k" completes meanwhile
        try await cache.store("stored", forKey: "k")
        gate.open()
        // Then the caller gets the stored value, loads nothing, and the cache keeps it
        #expect(try await caller.value == "stored")
        #expect(loads.values.isEmpty)
        #expect(await cache.value(forKey: "k") == "stored")
    }

    @Test func aRemoveAllBetweenAMissAndItsLoadMakesTheCallerLookAgain() async throws {
        // Given a caller that missed "k" and is about to load it
        let (cache, tier, gate) = makeHeldCache()
        let caller = Task { try await cache.value(forKey: "k") { "loaded" } }
        await gate.waitUntilEntered()
        // When removeAll runs meanwhile
        try await cache.removeAll()
        gate.open()
        // Then the caller looked again before loading
        #expect(try await caller.value == "loaded")
        let reads = await tier.reads["k"]
        #expect(reads == 2)
    }

    @Test func loadsOfOtherKeysFinishingMeanwhileDoNotMakeACallerLookAgain() async throws {
        // Given a caller that missed "k" and is about to load it
        let (cache, tier, gate) = makeHeldCache()
        let caller = Task { try await cache.value(forKey: "k") { "loaded" } }
        await gate.waitUntilEntered()
        // When a thousand loads of other keys finish meanwhile
        for index in 0..<1_000 {
            _ = try await cache.value(forKey: "other-\(index)") { "value \(index)" }
        }
        gate.open()
        // Then the caller loads after a single read of "k" from the tier
        #expect(try await caller.value == "loaded")
        let reads = await tier.reads["k"]
        #expect(reads == 1)
    }
}
