import Dispatch
import Foundation
import TestSupport
import Testing

@testable import CacheKit

/// Holds a disk storage's background index build between its scan and installing the index.
final class HeldIndexBuild: Sendable {
    private let release = DispatchSemaphore(value: 0)
    private let scanned = Locked(false)

    init<Value>(_ disk: DiskStorage<Value>) {
        disk.hooks.withLock {
            $0.beforeInstallingIndex = { [self] in
                scanned.withLock { $0 = true }
                release.wait()
            }
        }
    }

    /// Waits until the build has scanned the folder and is held; records an issue after 10 seconds.
    func waitUntilScanned() async {
        await waitFor("the background build to scan the folder") { scanned.withLock { $0 } }
    }

    func install() { release.signal() }
}

/// Waits until `condition` holds; records an issue naming `what` after 60 seconds instead of hanging.
/// The bound is for a build that never comes: under ThreadSanitizer with the whole suite running on two
/// cores, a background build was seen to take more than 10 seconds to be scheduled.
func waitFor(_ what: String, _ condition: () -> Bool) async {
    if await !eventually(within: .seconds(60), condition) { Issue.record("waited 60 s for \(what)") }
}

/// Waits until `disk` has an index installed.
func waitForIndex(_ disk: DiskStorage<String>) async {
    await waitFor("the index") { disk.hasIndex }
}

@Suite("DiskStorage: the first read does not wait for the index")
struct BackgroundIndexTests {
    let folder: TemporaryFolder
    let clock = ManualClock()

    init() throws {
        folder = try TemporaryFolder.create("CacheKitTests")
    }

    /// A folder holding `count` entries `k0`…, written by an earlier storage.
    func fill(_ count: Int, expiration: CacheExpiration? = nil) throws {
        let earlier = try DiskStorage<String>(in: folder, clock: clock)
        for index in 0..<count { try earlier.store("v\(index)", forKey: "k\(index)", expiration: expiration) }
    }

    @Test func theFirstReadIsServedFromItsFileWhileTheIndexIsBuilt() async throws {
        // Given a folder of 200 entries, opened again, with the background build held
        try fill(200)
        let disk = try DiskStorage<String>(in: folder, clock: clock)
        let build = HeldIndexBuild(disk)
        // When the first read comes
        let value = disk.value(forKey: "k7")
        // Then it is answered before the index exists, from the entry's file
        #expect(value == "v7")
        await build.waitUntilScanned()
        #expect(!disk.hasIndex)
        // And the index, once installed, holds every entry
        build.install()
        await waitForIndex(disk)
        #expect(disk.count == 200)
        #expect(disk.indexBuildCount == 1)
        #expect(disk.statistics.hits == 1)
    }

    @Test func aReadBeforeTheIndexRenewsItsEntryInTheIndex() async throws {
        // Given an entry that lives 10 seconds and renews on read, and a build that scanned it before
        try fill(1, expiration: .seconds(10))
        let disk = try DiskStorage<String>(in: folder, clock: clock)
        let build = HeldIndexBuild(disk)
        _ = disk.value(forKey: "other")
        await build.waitUntilScanned()
        // When it is read 6 seconds on, before the index is installed
        clock.advance(by: 6)
        #expect(disk.value(forKey: "k0") == "v0")
        build.install()
        await waitForIndex(disk)
        // Then the index has the renewed deadline: 14 seconds after the store, it is still there
        clock.advance(by: 8)
        #expect(disk.value(forKey: "k0") == "v0")
    }

    @Test func aStoreWhileTheIndexIsBuiltInTheBackgroundIsKept() async throws {
        // Given a background build started by a read and held after its scan
        try fill(3)
        let disk = try DiskStorage<String>(in: folder, clock: clock)
        let build = HeldIndexBuild(disk)
        _ = disk.value(forKey: "k0")
        await build.waitUntilScanned()
        // When a store comes meanwhile (it builds an index of its own) and the background build finishes
        try await disk.store("new", forKey: "k1")
        build.install()
        await waitFor("the background build to finish") { !disk.isBuildingInBackground }
        // Then the store's value is the one kept, and the background index was dropped, not installed
        #expect(disk.value(forKey: "k1") == "new")
        #expect(disk.count == 3)
        #expect(disk.indexBuildCount == 1)
    }

    @Test func aRemoveWithoutAnIndexWhileTheIndexIsBuiltInTheBackgroundIsNotUndone() async throws {
        // Given a background build held after a scan that found "k1"
        try fill(3)
        let disk = try DiskStorage<String>(in: folder, clock: clock)
        let build = HeldIndexBuild(disk)
        _ = disk.value(forKey: "k0")
        await build.waitUntilScanned()
        // When "k1" is removed meanwhile by name, the folder refusing a listing (out of descriptors),
        // and the background build then finishes
        disk.hooks.withLock { $0.listingFails = true }
        try await disk.removeValue(forKey: "k1")
        disk.hooks.withLock { $0.listingFails = false }
        build.install()
        await waitFor("the background build to finish") { !disk.isBuildingInBackground }
        // Then the build's scan, older than the remove, is not installed: "k1" stays removed
        #expect(disk.count == 2)
        #expect(disk.value(forKey: "k1") == nil)
        #expect(!FileManager.default.fileExists(atPath: disk.fileURL(forKey: "k1").path))
    }

    @Test func anEntryExpiredBeforeTheIndexIsAMissAndIsSweptWhenTheIndexIsBuilt() async throws {
        // Given an entry that expired while the storage was closed
        try fill(1, expiration: .seconds(5))
        clock.advance(by: 10)
        let disk = try DiskStorage<String>(in: folder, clock: clock)
        // When it is the first read
        let value = disk.value(forKey: "k0")
        // Then it is a miss, and the index build removes its file
        #expect(value == nil)
        await waitForIndex(disk)
        #expect(!FileManager.default.fileExists(atPath: disk.fileURL(forKey: "k0").path))
        #expect(disk.statistics.expirations == 1)
    }

    @Test func aReadBeforeTheIndexThatEndsAfterItIsInstalledRenewsItsEntryInTheIndex() async throws {
        // Given an entry that lives 10 seconds and renews on read, and a first read held at its file
        try fill(1, expiration: .seconds(10))
        let disk = try DiskStorage<String>(in: folder, clock: clock)
        let release = DispatchSemaphore(value: 0)
        let held = Locked(false)
        disk.setBeforeReadingFile { _ in
            guard
                held.withLock({ done in
                    defer { done = true }
                    return !done
                })
            else { return }
            release.wait()
        }
        clock.advance(by: 6)
        // On a thread of its own: held, it must not block a thread of Swift's cooperative pool.
        let reader = Task { try await offThePool { disk.value(forKey: "k0") } }
        // When the index is installed while the read is held, and the read then renews the entry
        await waitForIndex(disk)
        release.signal()
        #expect(try await reader.value == "v0")
        // Then the index has the renewed deadline: 14 seconds after the store, it is still there
        clock.advance(by: 8)
        #expect(disk.value(forKey: "k0") == "v0")
    }

    @Test func anIndexBuiltLaterThanAnEarlyReadBeganKeepsTheEntryThatReadRenews() async throws {
        // Given an entry stored to live 10 seconds, renewing on read, opened again 12 seconds later by a
        // storage whose first read's clock reading is 6 seconds after the store (only that reading: the
        // background build, which may read the clock first, reads the late time)
        try fill(1, expiration: .seconds(10))
        clock.advance(by: 12)
        let first = Locked(true)
        let readerThread = Locked<ObjectIdentifier?>(nil)
        let late = clock
        let readsEarly = CacheClock {
            let onReader = readerThread.withLock { $0 } == ObjectIdentifier(Thread.current)
            let isFirst =
                onReader
                && first.withLock { isFirst in
                    defer { isFirst = false }
                    return isFirst
                }
            return isFirst ? late.now.addingTimeInterval(-6) : late.now
        }
        let disk = try DiskStorage<String>(
            configuration: .init(directory: folder.url, sweepInterval: nil), clock: readsEarly)
        let release = DispatchSemaphore(value: 0)
        disk.setBeforeReadingFile { _ in release.wait() }
        // On a thread of its own: held, it must not block a thread of Swift's cooperative pool.
        let reader = Task {
            try await offThePool {
                readerThread.withLock { $0 = ObjectIdentifier(Thread.current) }
                return disk.value(forKey: "k0")
            }
        }
        // When the background build, 12 seconds after the store, is installed while that read is held
        await waitForIndex(disk)
        disk.setBeforeReadingFile(nil)
        release.signal()
        // Then the read is a hit that renews the entry, and the entry is still there afterwards
        #expect(try await reader.value == "v0")
        #expect(!first.withLock { $0 }, "the read never took the early reading")
        clock.advance(by: 2)
        #expect(disk.value(forKey: "k0") == "v0")
    }

    @Test func aRemoveAllWhileTheIndexIsBuiltInTheBackgroundLeavesNothing() async throws {
        // Given a background build held after a scan that found three entries
        try fill(3)
        let disk = try DiskStorage<String>(in: folder, clock: clock)
        let build = HeldIndexBuild(disk)
        _ = disk.value(forKey: "k0")
        await build.waitUntilScanned()
        // When everything is removed meanwhile and the background build finishes
        try await disk.removeAll()
        build.install()
        await waitFor("the background build to finish") { !disk.isBuildingInBackground }
        // Then nothing comes back
        #expect(disk.count == 0)
        #expect(disk.value(forKey: "k1") == nil)
    }

    @Test func aValueThatDoesNotDecodeBeforeTheIndexIsAMissLeftForTheIndex() async throws {
        // Given an entry whose bytes the storage's value type refuses, opened again
        try fill(1)
        let events = EventLog()
        let disk = try DiskStorage<Picky>(
            configuration: .init(directory: folder.url, sweepInterval: nil, onEvent: { events.record($0) }),
            clock: clock.cacheClock)
        let build = HeldIndexBuild(disk)
        defer { build.install() }
        // When it is the first read, before the index
        let value = disk.value(forKey: "k0")
        // Then it is a miss, counted as one, and nothing is said removed that was not
        #expect(value == nil)
        #expect(disk.statistics.hits == 0)
        #expect(disk.statistics.misses == 1)
        #expect(!events.all.contains { if case .removedCorruptEntry = $0 { true } else { false } })
    }

    @Test func aCacheReadsItsDiskTierOnCacheKitsDiskQueue() async throws {
        // Given a cache whose value is only on disk
        try fill(1)
        _ = DiskQueueMark.installed
        let disk = try DiskStorage<String>(in: folder, clock: clock)
        let reads = Locked<[Bool]>([])
        disk.setBeforeReadingFile { _ in reads.withLock { $0.append(DiskQueueMark.isOnDiskQueue) } }
        let cache = Cache(tiers: [
            MemoryStorage<String, String>(configuration: .init(sweepInterval: nil)), disk,
        ])
        // When it is read through the cache
        let value = await cache.value(forKey: "k0")
        // Then the file was read on the disk queue, not on Swift's cooperative pool
        #expect(value == "v0")
        #expect(reads.withLock { $0 } == [true])
    }

    @Test func aStoreWritingWithoutAnIndexMakesTheFirstReadBuildItOnItsThread() async throws {
        // Given a store writing its file while the folder could not be listed (no index)
        try fill(1)
        let disk = try DiskStorage<String>(in: folder, clock: clock)
        let build = HeldIndexBuild(disk)
        let release = DispatchSemaphore(value: 0)
        let writing = Locked(false)
        disk.setBeforeRename { _ in
            writing.withLock { $0 = true }
            release.wait()
        }
        disk.hooks.withLock { $0.listingFails = true }
        // On a thread of its own: held, it must not block a thread of Swift's cooperative pool.
        let store = Task { try await offThePool { try disk.store("new", forKey: "k") } }
        await waitFor("the store to write its file") { writing.withLock { $0 } }
        disk.hooks.withLock { $0.listingFails = false }
        // When the first read comes
        _ = disk.value(forKey: "k0")
        // Then it built the index on its own thread, which the store's rename then updates: a background
        // scan could list the folder before the rename and leave the store's file out of the index
        #expect(disk.hasIndex)
        release.signal()
        build.install()
        try await store.value
        #expect(disk.value(forKey: "k") == "new")
        #expect(disk.count == 2)
    }
}
