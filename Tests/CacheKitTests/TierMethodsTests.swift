import Dispatch
import Foundation
import TestSupport
import Testing

@testable import CacheKit

/// Marks CacheKit's disk queue, so a hook can tell whether it runs there.
enum DiskQueueMark {
    static let key = DispatchSpecificKey<Bool>()
    static let installed: Void = diskWorkQueue.setSpecific(key: key, value: true)

    /// Whether the calling code runs on CacheKit's disk queue.
    static var isOnDiskQueue: Bool {
        _ = installed
        return DispatchQueue.getSpecific(key: key) ?? false
    }
}

/// Synchronous code calling DiskStorage's tier methods by the same names (the synchronous forms).
private func readStoreAndRemoveSynchronously(_ disk: DiskStorage<String>) throws -> String? {
    try disk.store("v", forKey: "k")
    let found = disk.entry(forKey: "k")?.value
    try disk.removeValue(forKey: "k")
    return found
}

@Suite("CacheKit: one vocabulary for tiers and lookups")
struct TierMethodsTests {
    let folder: TemporaryFolder
    let clock = ManualClock()
    let calls = EventLog()

    init() throws {
        folder = try TemporaryFolder.create("CacheKitTests")
        _ = DiskQueueMark.installed
    }

    /// A disk storage whose reads and removes record whether they ran on the disk queue.
    func makeRecordingDisk() throws -> DiskStorage<String> {
        let calls = calls
        let disk = try DiskStorage<String>(
            configuration: .init(
                directory: folder.url, sweepInterval: nil,
                onEvent: { event in
                    if case .removed = event {
                        calls.record(
                            .hit(.disk, key: DiskQueueMark.isOnDiskQueue ? "remove on queue" : "remove"))
                    }
                }),
            clock: clock.cacheClock)
        disk.setBeforeReadingFile { _ in
            calls.record(.hit(.disk, key: DiskQueueMark.isOnDiskQueue ? "read on queue" : "read"))
        }
        return disk
    }

    @Test func aTiersMethodsAreTheNamesCallersUseOnTheTierItself() async throws {
        // Given memory and disk tiers used through the protocol only
        let tiers: [any CacheStorage<String>] = [
            MemoryStorage<String, String>(configuration: .init(sweepInterval: nil)),
            try DiskStorage<String>(in: folder, clock: clock),
        ]
        for tier in tiers {
            // When a value is stored, read, removed, stored again and everything removed
            try await tier.store("v", forKey: "k", expiration: .seconds(60))
            let found = await tier.entry(forKey: "k")
            try await tier.removeValue(forKey: "k")
            let afterRemove = await tier.entry(forKey: "k")
            try await tier.store("w", forKey: "k", expiration: nil)
            try await tier.removeAll()
            // Then each step did what its name says
            #expect(found?.value == "v")
            #expect(afterRemove == nil)
            #expect(await tier.entry(forKey: "k") == nil)
        }
    }

    @Test func awaitedDiskMethodsRunOnCacheKitsDiskQueue() async throws {
        // Given a disk storage in async code
        let disk = try makeRecordingDisk()
        // When it is read and written by the tier names, awaited
        try await disk.store("v", forKey: "k")
        let found = await disk.entry(forKey: "k")
        try await disk.removeValue(forKey: "k")
        // Then the file work ran on the disk queue, not on the caller's thread
        #expect(found?.value == "v")
        #expect(calls.all == [.hit(.disk, key: "read on queue"), .hit(.disk, key: "remove on queue")])
    }

    @Test func synchronousCodeCallingTheSameNamesRunsOnItsOwnThread() throws {
        // Given a disk storage in synchronous code
        let disk = try makeRecordingDisk()
        // When it is read and written by the same names, without await
        let found = try readStoreAndRemoveSynchronously(disk)
        // Then the file work ran on the calling thread
        #expect(found == "v")
        #expect(calls.all == [.hit(.disk, key: "read"), .hit(.disk, key: "remove")])
    }

    @Test func aHitInAnInMemoryTierOfYourOwnReportsTheMemoryKind() async throws {
        // Given a custom tier that says it keeps values in memory, holding a value
        let memoryLike = InMemoryTier(declaresMemory: true)
        try await memoryLike.store("v", forKey: "k", expiration: nil)
        let cache = Cache(tiers: [memoryLike, try DiskStorage<String>(in: folder, clock: clock)])
        // When
        let found = await cache.lookup(forKey: "k")
        // Then
        #expect(found?.value == "v")
        #expect(found?.tier == .memory)
        #expect(found?.wasLoaded == false)
    }

    @Test func aLoadedValueReportsNoTierAndKeepsItsExpirationsPerKind() async throws {
        // Given
        let memory = MemoryStorage<String, String>(
            configuration: .init(sweepInterval: nil), clock: clock.cacheClock)
        let disk = try DiskStorage<String>(in: folder, clock: clock)
        let cache = Cache(memory: memory, disk: disk)
        // When a loader says how long each kind of tier keeps its value
        let loaded = try await cache.lookup(forKey: "k") {
            LoadedValue("v", memoryExpiration: .seconds(10), diskExpiration: .seconds(100))
        }
        // Then it came from the loader, and each tier keeps it as long as the loader said
        #expect(loaded.tier == nil)
        #expect(loaded.wasLoaded)
        #expect(
            memory.entry(forKey: "k")?.expiration == .until(clock.now.addingTimeInterval(10), renewingBy: 10))
        #expect(
            await disk.entry(forKey: "k")?.expiration
                == .until(clock.now.addingTimeInterval(100), renewingBy: 100))
    }
}
