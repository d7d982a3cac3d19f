import Dispatch
import Foundation
import TestSupport
import Testing

@testable import CacheKit

@Suite("DiskStorage: its folder, and entries it cannot open yet")
struct DiskFolderTests {
    let folder: TemporaryFolder
    let clock = ManualClock()

    init() throws {
        folder = try TemporaryFolder.create("CacheKitTests")
    }

    // MARK: - A folder of one's own

    @Test func aDiskStorageMadeForAFolderKeepsItsEntriesThere() async throws {
        // Given a folder that does not exist yet
        let directory = folder.url.appendingPathComponent("Posters")
        // When a storage is made for it and stores an entry
        let storage = try DiskStorage<String>(directory: directory)
        try await storage.store("poster", forKey: "a")
        // Then the folder exists and holds the entry's file
        #expect(storage.directoryURL == directory)
        #expect(FileManager.default.fileExists(atPath: storage.fileURL(forKey: "a").path))
        #expect(storage.fileURL(forKey: "a").deletingLastPathComponent().path == directory.path)
    }

    @Test func aCacheMadeForAFolderHasAMemoryTierInFrontOfADiskTierThere() async throws {
        // Given
        let directory = folder.url.appendingPathComponent("Artwork")
        // When
        let cache = try Cache<String>(directory: directory)
        try await cache.store("art", forKey: "k")
        // Then
        #expect(cache.tiers.count == 2)
        #expect(cache.tiers.first is MemoryStorage<String, String>)
        #expect(cache.disk?.directoryURL == directory)
        #expect(cache.disk?.value(forKey: "k") == "art")
    }

    // MARK: - The default folder

    @Test func theDefaultFolderIsNamespacedByTheAppsBundleIdentifier() {
        // When
        let url = DiskStorage<Data>.defaultDirectory(
            named: "posters", bundleIdentifier: "com.example.BoxOffice")
        // Then
        #expect(url.pathComponents.suffix(3) == ["com.example.BoxOffice", "CacheKit", "posters"])
    }

    @Test func withoutABundleIdentifierTheProcessNameNamespacesTheFolder() {
        // When
        let url = DiskStorage<Data>.defaultDirectory(
            named: "posters", bundleIdentifier: nil, processName: "boxoffice")
        // Then
        #expect(url.pathComponents.suffix(3) == ["boxoffice", "CacheKit", "posters"])
    }

    @Test(arguments: ["../../etc", "..", "", "a/b"])
    func aNameNeverLeavesTheCachesFolder(name: String) {
        // When
        let url = DiskStorage<Data>.defaultDirectory(named: name, bundleIdentifier: "../app")
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
        // Then the folder is three components below the caches folder, none of them "." or ".."
        #expect(
            url.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
                == caches?.path)
        #expect(!url.pathComponents.suffix(3).contains { $0 == "." || $0 == ".." || $0.isEmpty })
    }

    @Test func namesThatDifferOnlyInCharactersNotAllowedInAFolderGetFoldersOfTheirOwn() {
        // When
        let names = ["포스터", "썸네일", "a b", "a_b", "a/b"]
        let folders = names.map {
            DiskStorage<Data>.defaultDirectory(named: $0, bundleIdentifier: "com.example.App")
                .lastPathComponent
        }
        // Then every name has its own folder, and a plain name is kept as it is
        #expect(Set(folders).count == names.count)
        #expect(folders[3] == "a_b")
    }

    // MARK: - A folder deleted while in use

    @Test func aStoreAfterTheFolderWasDeletedCreatesItAgain() throws {
        // Given a storage whose folder is deleted while the app runs
        let directory = folder.url.appendingPathComponent("posters", isDirectory: true)
        let storage = try DiskStorage<String>(
            configuration: .init(directory: directory), clock: clock.cacheClock)
        try storage.store("old", forKey: "before")
        try FileManager.default.removeItem(at: directory)
        // When
        try storage.store("new", forKey: "after")
        // Then the store worked, and the deleted entry is a miss
        #expect(storage.value(forKey: "after") == "new")
        #expect(storage.value(forKey: "before") == nil)
        #expect(FileManager.default.fileExists(atPath: directory.path))
    }

    @Test func aFileProtectionIsAcceptedWherePlatformsIgnoreIt() throws {
        // Given a protection class (applied on iOS, tvOS, watchOS and visionOS; ignored here)
        let configuration = DiskStorage<String>.Configuration(
            directory: folder.url, fileProtection: .completeUntilFirstUserAuthentication)
        // When
        let storage = try DiskStorage<String>(configuration: configuration, clock: clock.cacheClock)
        try storage.store("v", forKey: "k")
        // Then
        #expect(storage.value(forKey: "k") == "v")
        #expect(
            storage.configuration.fileProtection?.rawValue
                == FileProtectionType.completeUntilFirstUserAuthentication.rawValue)
    }

    // MARK: - Entries that cannot be opened yet (a locked device)

    /// A second storage on the folder whose index build cannot open any entry file (EPERM, as a
    /// protected file while the device is locked) until `locked` is set to false.
    func reopenWhileLocked(_ locked: Locked<Bool>) throws -> DiskStorage<String> {
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        storage.hooks.withLock { $0.openFailure = { _ in locked.withLock { $0 } ? EPERM : nil } }
        return storage
    }

    @Test func anEntryThatCouldNotBeOpenedAtLaunchIsFoundOnceItCanBe() throws {
        // Given an entry written earlier, and a launch while the device is locked
        try DiskStorage<String>(in: folder, clock: clock).store("poster", forKey: "k")
        let locked = Locked(true)
        let storage = try reopenWhileLocked(locked)
        #expect(storage.value(forKey: "k") == nil)
        // When the device is unlocked
        locked.withLock { $0 = false }
        // Then the entry is found, and it was never removed
        #expect(storage.contains("k"))
        #expect(storage.value(forKey: "k") == "poster")
    }

    @Test func removingAnEntryThatCannotBeOpenedDeletesItsFile() throws {
        // Given an entry that cannot be opened
        try DiskStorage<String>(in: folder, clock: clock).store("old", forKey: "k")
        let locked = Locked(true)
        let storage = try reopenWhileLocked(locked)
        // When it is removed while still locked, then the device is unlocked
        try storage.removeValue(forKey: "k")
        locked.withLock { $0 = false }
        // Then the removed value never comes back
        #expect(storage.value(forKey: "k") == nil)
        #expect(!FileManager.default.fileExists(atPath: storage.fileURL(forKey: "k").path))
    }

    @Test func removeAllDeletesEntriesThatCannotBeOpened() throws {
        // Given an entry that cannot be opened
        try DiskStorage<String>(in: folder, clock: clock).store("old", forKey: "k")
        let locked = Locked(true)
        let storage = try reopenWhileLocked(locked)
        _ = storage.value(forKey: "k")
        // When everything is removed, then the device is unlocked
        try storage.removeAll()
        locked.withLock { $0 = false }
        // Then
        #expect(storage.value(forKey: "k") == nil)
        #expect(!FileManager.default.fileExists(atPath: storage.fileURL(forKey: "k").path))
    }
}

@Suite("DiskStorage: an indexed entry read while the device is locked")
struct LockedReadTests {
    let folder: TemporaryFolder
    let clock = ManualClock()

    init() throws {
        folder = try TemporaryFolder.create("CacheKitTests")
    }

    /// A storage holding "k", indexed while unlocked; reads fail with EPERM while `locked` is true.
    func storageWithIndexedEntry(_ locked: Locked<Bool>) throws -> DiskStorage<String> {
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        try storage.store("poster", forKey: "k")
        storage.hooks.withLock { $0.openFailure = { _ in locked.withLock { $0 } ? EPERM : nil } }
        return storage
    }

    @Test func anIndexedEntryIsAMissWhileLockedAndIsServedOnceUnlocked() throws {
        // Given an entry indexed while the device was unlocked, read after it locked
        let locked = Locked(true)
        let storage = try storageWithIndexedEntry(locked)
        #expect(storage.value(forKey: "k") == nil)
        // When the device is unlocked
        locked.withLock { $0 = false }
        // Then the entry was kept and is served
        #expect(storage.value(forKey: "k") == "poster")
    }

    @Test func removingAnIndexedEntryWhileLockedDeletesItsFile() throws {
        // Given a read that failed while locked
        let locked = Locked(true)
        let storage = try storageWithIndexedEntry(locked)
        _ = storage.value(forKey: "k")
        // When it is removed while still locked, then the device is unlocked
        try storage.removeValue(forKey: "k")
        locked.withLock { $0 = false }
        // Then
        #expect(storage.value(forKey: "k") == nil)
        #expect(!FileManager.default.fileExists(atPath: storage.fileURL(forKey: "k").path))
    }

    @Test func removeAllWhileLockedDeletesIndexedEntriesItCannotOpen() throws {
        // Given an indexed entry that cannot be opened now
        let locked = Locked(true)
        let storage = try storageWithIndexedEntry(locked)
        // When everything is removed
        try storage.removeAll()
        // Then its file is gone, though its trailer could not be checked
        #expect(!FileManager.default.fileExists(atPath: storage.fileURL(forKey: "k").path))
        locked.withLock { $0 = false }
        #expect(storage.value(forKey: "k") == nil)
    }

    @Test func aStoreOverAnEntryUnreadableAtLaunchThenARemoveLeavesNothingIndexed() throws {
        // Given an entry unreadable at launch, stored anew, then removed while still locked
        try DiskStorage<String>(in: folder, clock: clock).store("old", forKey: "k")
        let locked = Locked(true)
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        storage.hooks.withLock { $0.openFailure = { _ in locked.withLock { $0 } ? EPERM : nil } }
        #expect(storage.value(forKey: "k") == nil)
        try storage.store("new", forKey: "k")
        // When
        try storage.removeValue(forKey: "k")
        // Then nothing is left: not in the index, not in the totals, not on disk
        #expect(!storage.contains("k"))
        #expect(storage.count == 0)
        #expect(storage.totalSize == 0)
        #expect(!FileManager.default.fileExists(atPath: storage.fileURL(forKey: "k").path))
    }
}
