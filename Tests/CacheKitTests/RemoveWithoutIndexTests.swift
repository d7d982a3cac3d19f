import Dispatch
import Foundation
import TestSupport
import Testing

@testable import CacheKit

@Suite("DiskStorage: a remove when the index cannot be built")
struct RemoveWithoutIndexTests {
    let folder: TemporaryFolder
    let clock = ManualClock()

    init() throws {
        folder = try TemporaryFolder.create("CacheKitTests")
    }

    @Test func aRemoveDeletesTheFileEvenWhenTheIndexCannotBeBuilt() throws {
        // Given an entry on disk, and a new storage that cannot list its folder (out of descriptors)
        try DiskStorage<String>(in: folder, clock: clock).store("old", forKey: "k")
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        storage.hooks.withLock { $0.listingFails = true }
        // When the key is removed
        try storage.removeValue(forKey: "k")
        // Then the file is gone, and once the folder can be listed the value does not come back
        #expect(!FileManager.default.fileExists(atPath: storage.fileURL(forKey: "k").path))
        storage.hooks.withLock { $0.listingFails = false }
        #expect(storage.value(forKey: "k") == nil)
    }

    @Test func aRemoveAllThatCannotListTheFolderThrowsAndHidesNothing() throws {
        // Given an entry on disk, and a new storage that cannot list its folder (out of descriptors)
        try DiskStorage<String>(in: folder, clock: clock).store("old", forKey: "k")
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        storage.hooks.withLock { $0.listingFails = true }
        // When everything is removed
        let thrown = #expect(throws: CacheError.self) { try storage.removeAll() }
        // Then it says so, naming the folder, and the entry it could not reach is still served once the
        // folder can be listed: a remove removes or throws
        #expect(thrown?.operation == .removeAll)
        #expect(thrown?.path == storage.directoryURL.path)
        storage.hooks.withLock { $0.listingFails = false }
        #expect(storage.value(forKey: "k") == "old")
        #expect(storage.count == 1)
    }

    @Test func aRemoveAllThatCannotListTheFolderLeavesAStoreUnderWayToFinish() async throws {
        // Given an entry on disk, a new storage that cannot list its folder, and a store of the key held
        // between writing its file and renaming it
        try await DiskStorage<String>(in: folder, clock: clock).store("old", forKey: "k")
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        storage.hooks.withLock { $0.listingFails = true }
        let release = DispatchSemaphore(value: 0)
        let held = Locked(false)
        storage.hooks.withLock {
            $0.beforeRename = { _ in
                held.withLock { $0 = true }
                release.wait()
            }
        }
        let store = Task { try await offThePool { try storage.store("new", forKey: "k") } }
        await waitFor("the store to write its file") { held.withLock { $0 } }
        // When removeAll fails meanwhile, and the store then finishes
        #expect(throws: CacheError.self) { try storage.removeAll() }
        release.signal()
        try await store.value
        // Then the store's value is the key's, once the folder can be listed
        storage.hooks.withLock { $0.listingFails = false }
        #expect(storage.value(forKey: "k") == "new")
    }

    @Test func aRemoveAllThatCannotListTheFolderStillRemovesWhatItsIndexHolds() throws {
        // Given a storage with its index built, that then cannot list its folder
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        try storage.store("v", forKey: "k")
        storage.hooks.withLock { $0.listingFails = true }
        // When everything is removed
        try storage.removeAll()
        // Then every entry is gone: the index lists every file the storage has
        #expect(!FileManager.default.fileExists(atPath: storage.fileURL(forKey: "k").path))
        storage.hooks.withLock { $0.listingFails = false }
        #expect(storage.value(forKey: "k") == nil)
    }

    @Test func aRemoveLeavesAForeignFileAloneWhenTheIndexCannotBeBuilt() throws {
        // Given a file that is not CacheKit's under the key's name
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        let path = storage.fileURL(forKey: "k").path
        try Data("not a cache entry".utf8).write(to: URL(fileURLWithPath: path))
        storage.hooks.withLock { $0.listingFails = true }
        // When
        try storage.removeValue(forKey: "k")
        // Then
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
