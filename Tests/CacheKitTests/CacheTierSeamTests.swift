import Foundation
import TestSupport
import Testing

@testable import CacheKit

/// A tier of the test's own: a dictionary behind an actor, standing in for a shared store (Redis) or a mock.
actor DictionaryTier: CacheStorage {
    typealias Value = String
    private(set) var entries: [String: CacheEntry<String>] = [:]
    private(set) var calls: [String] = []

    func entry(forKey key: String) async -> CacheEntry<String>? {
        calls.append("get \(key)")
        return entries[key]
    }

    func store(_ value: String, forKey key: String, expiration: CacheExpiration?) async throws {
        calls.append("set \(key)")
        entries[key] = CacheEntry(value: value, expiration: expiration ?? .never)
    }

    func removeValue(forKey key: String) async throws {
        calls.append("remove \(key)")
        entries[key] = nil
    }

    func removeAll() async throws {
        calls.append("removeAll")
        entries = [:]
    }

    func seed(_ value: String, forKey key: String, expiration: CacheExpiration) {
        entries[key] = CacheEntry(value: value, expiration: expiration)
    }
}

/// An in-memory tier of the test's own, which says so; it records the expiration of each store.
final class InMemoryTier: CacheStorage, @unchecked Sendable {
    // @unchecked Sendable: `stored` is only read or written while holding `lock`.
    private let lock = NSLock()
    private var stored: [String: (value: String, expiration: CacheExpiration?)] = [:]
    let declaresMemory: Bool

    init(declaresMemory: Bool) { self.declaresMemory = declaresMemory }

    var kind: CacheTier { declaresMemory ? .memory : .disk }

    func expiration(forKey key: String) -> CacheExpiration?? { lock.withLock { stored[key]?.expiration } }
    func entry(forKey key: String) async -> CacheEntry<String>? {
        lock.withLock { stored[key].map { CacheEntry(value: $0.value, expiration: $0.expiration ?? .never) } }
    }
    func store(_ value: String, forKey key: String, expiration: CacheExpiration?) async throws {
        lock.withLock { stored[key] = (value, expiration) }
    }
    func removeValue(forKey key: String) async throws {}
    func removeAll() async throws {}
}

/// A tier whose every write fails.
struct BrokenTier: CacheStorage {
    struct Down: Error {}
    func entry(forKey key: String) async -> CacheEntry<String>? { nil }
    func store(_ value: String, forKey key: String, expiration: CacheExpiration?) async throws {
        throw Down()
    }
    func removeValue(forKey key: String) async throws { throw Down() }
    func removeAll() async throws { throw Down() }
}

@Suite("Cache: tiers of your own through CacheStorage")
struct CacheTierSeamTests {
    let folder: TemporaryFolder
    let clock = ManualClock()

    init() throws {
        folder = try TemporaryFolder.create("CacheKitTests")
    }

    @Test func aSharedTierBehindDiskIsAskedLastAndItsHitMovesForward() async throws {
        // Given memory, disk, and a shared tier that alone has the value, due in 60 seconds
        let memory = MemoryStorage<String, String>(
            configuration: .init(sweepInterval: nil), clock: clock.cacheClock)
        let disk = try DiskStorage<String>(in: folder, clock: clock)
        let shared = DictionaryTier()
        await shared.seed("from redis", forKey: "k", expiration: .date(clock.now.addingTimeInterval(60)))
        let cache = Cache(tiers: [memory, disk, shared])
        // When
        let found = await cache.lookup(forKey: "k")
        // Then the value came from the shared tier (a tier of the disk kind, as it does not say otherwise)
        // and now sits in memory and on disk, with its lifetime
        #expect(found?.value == "from redis")
        #expect(found?.tier == .disk)
        #expect(await shared.calls == ["get k"])
        #expect(memory.value(forKey: "k") == "from redis")
        #expect(disk.value(forKey: "k") == "from redis")
        clock.advance(by: 61)
        #expect(memory.value(forKey: "k") == nil)
        #expect(disk.value(forKey: "k") == nil)
    }

    @Test func aTierInFrontSeesEveryStoreAndRemoveInOrder() async throws {
        // Given a mock in front of the disk
        let mock = DictionaryTier()
        let cache = Cache(tiers: [mock, try DiskStorage<String>(in: folder, clock: clock)])
        // When
        try await cache.store("v", forKey: "k")
        _ = await cache.value(forKey: "k")
        try await cache.removeValue(forKey: "k")
        try await cache.removeAll()
        // Then
        #expect(await mock.calls == ["set k", "get k", "remove k", "removeAll"])
    }

    @Test func aFailingTierIsReportedAsACacheErrorAfterTheOthersStored() async throws {
        // Given
        let disk = try DiskStorage<String>(in: folder, clock: clock)
        let cache = Cache(tiers: [BrokenTier(), disk])
        // When
        let error = await #expect(throws: CacheError.self) { try await cache.store("v", forKey: "k") }
        // Then
        guard case .tier(let underlying) = error?.reason else {
            Issue.record("expected a tier failure, got \(String(describing: error))")
            return
        }
        #expect(underlying is BrokenTier.Down)
        #expect(disk.value(forKey: "k") == "v")
    }

    @Test func theLoaderStoresIntoEveryTier() async throws {
        // Given
        let shared = DictionaryTier()
        let cache = Cache(tiers: [
            MemoryStorage<String, String>(configuration: .init(sweepInterval: nil)), shared,
        ])
        // When
        _ = try await cache.value(forKey: "k") { "loaded" }
        // Then
        #expect(await shared.entries["k"]?.value == "loaded")
    }

    @Test func anInMemoryTierOfYourOwnGetsTheMemoryExpiration() async throws {
        // Given a custom tier that says it keeps values in memory, and one that does not say
        let memoryLike = InMemoryTier(declaresMemory: true)
        let undeclared = DictionaryTier()
        let cache = Cache(tiers: [memoryLike, undeclared])
        // When a value is stored with one expiration for memory and another for disk
        try await cache.store("v", forKey: "k", memoryExpiration: .seconds(60), diskExpiration: .days(30))
        // Then each tier got the expiration of its kind
        #expect(memoryLike.expiration(forKey: "k") == .some(.seconds(60)))
        #expect(await undeclared.entries["k"]?.expiration == .days(30))
    }

    @Test func cacheKitsOwnTiersSayWhichKindTheyAre() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kind-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(MemoryStorage<String, String>().kind == .memory)
        #expect(try DiskStorage<String>(directory: folder).kind == .disk)
        #expect(DictionaryTier().kind == .disk)
    }
}
