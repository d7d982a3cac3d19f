import Foundation
import TestSupport
import Testing

@testable import CacheKit

@Suite("DiskStorage: its folder, and entries it cannot open yet")
struct DiskFolderTests {
    let folder: TemporaryFolder
    let clock = ManualClock()

    init() throws {
        folder = try TemporaryFolder()
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
        storage.openFailure.withLock { $0 = { _ in locked.withLock { $0 } ? EPERM : nil } }
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
