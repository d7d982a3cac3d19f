import Foundation
import TestSupport
import Testing

@testable import CacheKit

/// Two storages on one folder declared shared behave as two processes do: each keeps its own index
/// and follows the other's changes through the folder's journal (`flock` locks belong to the open file,
/// so two storages in one process exclude each other as two processes would). Real processes are in
/// `SharedFolderProcessTests`.
@Suite("A folder shared across processes")
struct SharedFolderTests {
    let folder: TemporaryFolder
    let clock = ManualClock()

    init() throws {
        folder = try TemporaryFolder.create("shared")
    }

    func storage(sizeLimit: Int = 150 * 1024 * 1024, countLimit: Int = .max, shared: Bool = true)
        throws -> DiskStorage<Data>
    {
        try DiskStorage<Data>(
            configuration: .init(
                directory: folder.url, countLimit: countLimit, sizeLimit: sizeLimit, sweepInterval: nil,
                sharedAcrossProcesses: shared),
            clock: clock.cacheClock)
    }

    /// The bytes the folder's entry files take.
    var bytesOnDisk: Int {
        folder.fileNames.filter { !$0.hasPrefix(".") }.reduce(0) { total, name in
            let path = folder.url.appendingPathComponent(name).path
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            return total + ((attributes?[.size] as? Int) ?? 0)
        }
    }

    @Test func aValueAnotherStorageStoresAfterThisOneOpenedTheFolderIsFoundOnTheNextRead() throws {
        // Given a storage that has built its index, and another on the same folder
        let app = try storage()
        let widget = try storage()
        #expect(app.count == 0)
        // When the other stores a value
        try widget.store(Data("new".utf8), forKey: "poster")
        // Then the first finds it on its next read, and says it holds it
        #expect(app.value(forKey: "poster") == Data("new".utf8))
        #expect(app.contains("poster"))
    }

    @Test func aRemoveByAnotherStorageIsSeenByContainsWithoutReadingTheFile() throws {
        // Given a value both storages have seen
        let app = try storage()
        let widget = try storage()
        try app.store(Data("old".utf8), forKey: "poster")
        #expect(widget.contains("poster"))
        // When one removes it
        try app.removeValue(forKey: "poster")
        // Then the other's index no longer holds it
        #expect(!widget.contains("poster"))
        #expect(widget.value(forKey: "poster") == nil)
    }

    @Test func removeAllByAnotherStorageEmptiesThisOnesIndex() throws {
        // Given entries both storages have indexed
        let app = try storage()
        let widget = try storage()
        for index in 0..<5 { try app.store(Data(count: 100), forKey: "k\(index)") }
        #expect(widget.contains("k3"))
        // When the other removes everything
        try app.removeAll()
        // Then this one holds nothing, and its next store is found by the other
        #expect(!widget.contains("k3"))
        #expect(widget.totalSize == 0)
        try widget.store(Data("after".utf8), forKey: "k3")
        #expect(app.value(forKey: "k3") == Data("after".utf8))
    }

    @Test func twoStoragesWithOneSizeLimitKeepTheFolderUnderIt() throws {
        // Given two storages on one folder, each with a 20,000-byte limit
        let app = try storage(sizeLimit: 20_000)
        let widget = try storage(sizeLimit: 20_000)
        // When each stores 30 entries of 1,000 bytes, in turn
        for index in 0..<30 {
            try app.store(Data(count: 1_000), forKey: "app-\(index)")
            try widget.store(Data(count: 1_000), forKey: "widget-\(index)")
        }
        // Then the folder holds at most the one limit, and each storage's total says what is there
        #expect(bytesOnDisk <= 20_000)
        #expect(app.totalSize == bytesOnDisk)
        #expect(widget.totalSize == bytesOnDisk)
    }

    @Test func twoStoragesWithOneCountLimitKeepTheFolderUnderIt() throws {
        // Given two storages on one folder, each with a limit of 10 entries
        let app = try storage(countLimit: 10)
        let widget = try storage(countLimit: 10)
        // When each stores 20 entries, in turn
        for index in 0..<20 {
            try app.store(Data(count: 10), forKey: "app-\(index)")
            try widget.store(Data(count: 10), forKey: "widget-\(index)")
        }
        // Then the folder holds at most 10 entries
        #expect(folder.fileNames.filter { !$0.hasPrefix(".") }.count <= 10)
        #expect(app.count <= 10)
    }

    @Test func anEntryAnotherStorageRenewedIsServedWhereTheIndexSaysItExpired() throws {
        // Given an entry that lives 10 seconds, indexed by both storages
        let app = try storage()
        let widget = try storage()
        try app.store(Data("poster".utf8), forKey: "poster", expiration: .seconds(10))
        #expect(widget.contains("poster"))
        // When, 8 seconds later, the other storage reads it (which renews it by 10 seconds)
        clock.advance(by: 8)
        #expect(widget.value(forKey: "poster") != nil)
        // Then 4 seconds after that this storage still serves it, and its sweep keeps it
        clock.advance(by: 4)
        #expect(app.contains("poster"))
        #expect(app.removeExpired() == 0)
        #expect(app.value(forKey: "poster") == Data("poster".utf8))
    }

    @Test func anExpiredEntryAnotherStorageSweepsLeavesThisOnesIndex() throws {
        // Given an entry that lives 10 seconds, indexed by two storages
        let app = try storage()
        let widget = try storage()
        try app.store(Data(count: 500), forKey: "poster", expiration: .seconds(10))
        #expect(widget.count == 1)
        // When, after it expired, the other storage's sweep removes it
        clock.advance(by: 20)
        #expect(widget.removeExpired() == 1)
        // Then the first no longer counts it, without reading it
        #expect(app.count == 0)
        #expect(app.totalSize == 0)
    }

    @Test func aStorageListingASharedFolderLeavesExpiredFilesForTheSweep() throws {
        // Given an entry that expired before a storage opened the folder
        try storage().store(Data(count: 500), forKey: "poster", expiration: .seconds(10))
        clock.advance(by: 20)
        // When a storage lists the folder
        let widget = try storage()
        #expect(widget.count == 1)
        // Then the file is there until its sweep, which removes it (one at a time, after checking it)
        #expect(!widget.contains("poster"))
        #expect(widget.removeExpired() == 1)
        #expect(folder.fileNames.filter { !$0.hasPrefix(".") }.isEmpty)
    }

    @Test func aFileDamagedOnDiskInASharedFolderIsRemovedByAReadOfItsKey() throws {
        // Given an entry whose payload was damaged on disk
        let first = try storage()
        try first.store(Data(repeating: 7, count: 100), forKey: "poster")
        let file = first.fileURL(forKey: "poster")
        var bytes = try Data(contentsOf: file)
        bytes[0] ^= 0xff
        try bytes.write(to: file)
        // When a storage lists the folder and then looks the key up
        let widget = try storage()
        #expect(widget.count == 1)
        #expect(widget.value(forKey: "poster") == nil)
        // Then the damaged file is gone
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func aStoreUnderWayLandsWhenTheFolderIsListedAgainMeanwhile() throws {
        // Given a value this storage stored, and a store of a new value for it under way
        let app = try storage()
        let widget = try storage()
        try app.store(Data("old".utf8), forKey: "poster")
        let journal = try SharedJournal(directory: folder.url.path)
        app.setBeforeRename { [widget] _ in
            // When, before it renames its file, the journal fills up and another storage stores a
            // different key, so a new epoch makes this storage list the folder again
            let fillers = (0..<Int(SharedJournal.capacity)).map { StableHash.hex("filler-\($0)") }
            _ = journal.withLock(exclusive: true) { journal.append(fillers) }
            try? widget.store(Data("other".utf8), forKey: "other")
        }
        try app.store(Data("new".utf8), forKey: "poster")
        app.setBeforeRename(nil)
        // Then the store landed: both storages read the new value
        #expect(app.value(forKey: "poster") == Data("new".utf8))
        #expect(widget.value(forKey: "poster") == Data("new".utf8))
    }

    @Test func anIndexBuiltInTheBackgroundKeepsAnExpiredKeyAnotherStorageStoredSinceTheListing() async throws
    {
        // Given an entry that expired, and a storage opening the folder whose first read lists it in
        // the background
        try await storage().store(Data("old".utf8), forKey: "poster", expiration: .seconds(10))
        clock.advance(by: 20)
        let app = try storage()
        let widget = try storage()
        app.hooks.withLock {
            $0.beforeInstallingIndex = { [widget] in
                // When another storage stores the key again between that listing and its install
                try? widget.store(Data("fresh".utf8), forKey: "poster")
            }
        }
        #expect(app.value(forKey: "unrelated") == nil)
        #expect(await eventually { app.hasIndex })
        // Then the fresh value is still there, for both
        #expect(app.value(forKey: "poster") == Data("fresh".utf8))
        #expect(widget.value(forKey: "poster") == Data("fresh".utf8))
    }

    @Test func aJournalThatIsNotOursIsReplacedAndTheFolderStillFollowed() throws {
        // Given a shared folder whose journal holds bytes CacheKit never wrote
        let journal = folder.url.appendingPathComponent(SharedJournal.fileName)
        try Data(repeating: 0xff, count: 4_000).write(to: journal)
        let app = try storage()
        let widget = try storage()
        #expect(app.count == 0)
        // When the other storage stores a value
        try widget.store(Data("new".utf8), forKey: "poster")
        // Then it is found, and the journal now starts with CacheKit's header
        #expect(app.value(forKey: "poster") == Data("new".utf8))
        #expect(SharedJournal(reading: journal)?.mark() != nil)
    }

    @Test func aJournalThatIsNotOursMakesTheFolderBeListedOnceNotOnEveryAccess() throws {
        // Given a shared folder whose journal holds bytes CacheKit never wrote, and no other process
        try Data(repeating: 0xff, count: 64).write(
            to: folder.url.appendingPathComponent(SharedJournal.fileName))
        let app = try storage()
        // When the storage is used five times
        for _ in 0..<5 { _ = app.count }
        // Then it listed the folder once to build its index and once more to replace the journal's header
        #expect(app.indexBuildCount == 2)
    }

    @Test func aFullJournalStartsANewEpochAndTheOtherStorageListsTheFolderAgain() throws {
        // Given a storage that has seen the folder, and a journal one change short of full
        let app = try storage()
        let widget = try storage()
        #expect(app.count == 0)
        let names = (0..<Int(SharedJournal.capacity) - 1).map { StableHash.hex("filler-\($0)") }
        let journal = try SharedJournal(directory: folder.url.path)
        _ = journal.withLock(exclusive: true) { journal.append(names) }
        // When the other storage stores two values, the second past the journal's end
        try widget.store(Data("1".utf8), forKey: "first")
        try widget.store(Data("2".utf8), forKey: "second")
        // Then a new epoch began, and both values are found
        #expect(journal.mark()?.count == 0)
        #expect(app.value(forKey: "first") == Data("1".utf8))
        #expect(app.value(forKey: "second") == Data("2".utf8))
    }

    @Test func aFolderNotDeclaredSharedHasNoJournal() throws {
        // Given a storage on a folder no other process opens
        let app = try storage(shared: false)
        // When it stores and reads
        try app.store(Data("poster".utf8), forKey: "poster")
        #expect(app.value(forKey: "poster") != nil)
        // Then the folder holds the entry and nothing else
        #expect(folder.fileNames.count == 1)
    }

    @Test func aJournalNameTakenByAFolderRefusesToOpenTheStorage() throws {
        // Given a folder where the journal's name is taken by a directory
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent(SharedJournal.fileName), withIntermediateDirectories: true)
        // When a shared storage opens it, then it throws rather than work unshared
        let error = #expect(throws: CacheError.self) { try storage() }
        #expect(error?.operation == .open)
    }

    @Test func aJournalNameTakenByAPipeRefusesToOpenTheStorageWithoutBlocking() throws {
        // Given a folder where the journal's name is taken by a FIFO
        #expect(mkfifo(folder.url.appendingPathComponent(SharedJournal.fileName).path, 0o600) == 0)
        // When a shared storage opens it, then it throws at once with the open operation
        let error = #expect(throws: CacheError.self) { try storage() }
        #expect(error?.operation == .open)
    }
}

extension SharedJournal {
    /// The journal at `url`, for a test to read.
    convenience init?(reading url: URL) {
        try? self.init(directory: url.deletingLastPathComponent().path)
    }
}
