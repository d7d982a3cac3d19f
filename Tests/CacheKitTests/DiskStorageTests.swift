import Foundation
import TestSupport
import Testing

@testable import CacheKit

@Suite("DiskStorage")
struct DiskStorageTests {
    let folder: TemporaryFolder
    let clock = ManualClock()

    init() throws {
        folder = try TemporaryFolder.create("CacheKitTests")
    }

    @Test func aStoredValueIsReadBack() throws {
        // Given
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        // When
        try storage.store("웡카", forKey: "20236180")
        // Then
        #expect(storage.value(forKey: "20236180") == "웡카")
        #expect(storage.value(forKey: "missing") == nil)
    }

    @Test func codableValuesRoundTripAsJSON() throws {
        // Given
        let storage = try DiskStorage<Movie>(in: folder, clock: clock)
        let movie = Movie(code: "20124079", title: "광해, 왕이 된 남자")
        // When
        try storage.store(movie, forKey: movie.code)
        // Then
        #expect(storage.value(forKey: movie.code) == movie)
    }

    @Test func aNewInstanceSeesEntriesAndTheirExpiration() throws {
        // Given an entry of one hour written by a first instance
        try DiskStorage<String>(in: folder, clock: clock).store("v", forKey: "k", expiration: .seconds(3600))
        // When a second instance opens the folder
        let reopened = try DiskStorage<String>(in: folder, clock: clock)
        // Then it sees the entry until the original expiration, not later
        #expect(reopened.value(forKey: "k", extendingExpiration: .none) == "v")
        clock.advance(by: 3600)
        #expect(DiskStorage<String>.reopen(folder, clock).value(forKey: "k") == nil)
    }

    @Test func anExtendedExpirationIsPersisted() throws {
        // Given
        let first = try DiskStorage<String>(in: folder, clock: clock)
        try first.store("v", forKey: "k", expiration: .seconds(100))
        clock.advance(by: 90)
        // When a read renews it for its original 100 seconds
        _ = first.value(forKey: "k", extendingExpiration: .cacheTime)
        clock.advance(by: 90)
        // Then a new instance still sees it
        #expect(
            DiskStorage<String>.reopen(folder, clock).value(forKey: "k", extendingExpiration: .none) == "v")
    }

    @Test func recencySurvivesARestart() throws {
        // Given a, b, c stored in order, then a read, in a first instance
        let first = try DiskStorage<String>(in: folder, clock: clock)
        for key in ["a", "b", "c"] {
            try first.store(key, forKey: key)
            clock.advance(by: 1)
        }
        _ = first.value(forKey: "a")
        clock.advance(by: 1)
        // When a second instance with room for 3 stores a fourth (trimming to 80 %: 2 entries)
        let second = try DiskStorage<String>(in: folder, clock: clock, countLimit: 3)
        try second.store("d", forKey: "d")
        // Then the least recently used, b and c, went first
        #expect(second.value(forKey: "a") == "a")
        #expect(second.value(forKey: "d") == "d")
        #expect(second.value(forKey: "b") == nil)
        #expect(second.value(forKey: "c") == nil)
    }

    @Test func anExpiredEntryIsAMissAndItsFileIsRemoved() throws {
        // Given
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        try storage.store("v", forKey: "k", expiration: .seconds(10))
        // When
        clock.advance(by: 10)
        // Then
        #expect(storage.value(forKey: "k") == nil)
        #expect(folder.fileNames.isEmpty)
        #expect(storage.statistics.expirations == 1)
    }

    @Test func removeExpiredDeletesOnlyExpiredFiles() throws {
        // Given
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        try storage.store("short", forKey: "short", expiration: .seconds(10))
        try storage.store("long", forKey: "long", expiration: .days(1))
        clock.advance(by: 10)
        // When
        let removed = storage.removeExpired()
        // Then
        #expect(removed == 1)
        #expect(folder.fileNames == [storage.fileURL(forKey: "long").lastPathComponent])
    }

    @Test func theCountLimitTrimsToEightyPercentByLeastRecentAccess() throws {
        // Given room for 10
        let storage = try DiskStorage<String>(in: folder, clock: clock, countLimit: 10)
        for index in 0..<10 {
            try storage.store("\(index)", forKey: "\(index)")
            clock.advance(by: 1)
        }
        // When the eleventh arrives
        try storage.store("10", forKey: "10")
        // Then the oldest three went, leaving 8
        #expect(storage.count == 8)
        #expect(folder.fileNames.count == 8)
        #expect(storage.value(forKey: "0") == nil)
        #expect(storage.value(forKey: "2") == nil)
        #expect(storage.value(forKey: "3") == "3")
        #expect(storage.statistics.evictions == 3)
    }

    @Test func theSizeLimitCountsWholeFiles() throws {
        // Given room for 10 KB
        let storage = try DiskStorage<Data>(in: folder, clock: clock, sizeLimit: 10_000)
        // When 4 KB entries are stored three times
        for key in ["a", "b", "c"] {
            try storage.store(Data(count: 4_000), forKey: key)
            clock.advance(by: 1)
        }
        // Then the total stays under the limit's 80 %
        #expect(storage.totalSize <= 8_000)
        #expect(storage.value(forKey: "c") != nil)
        #expect(storage.value(forKey: "a") == nil)
    }

    @Test func anEntryLargerThanTheWholeCacheIsRefusedWithAClearError() throws {
        // Given
        let storage = try DiskStorage<Data>(in: folder, clock: clock, sizeLimit: 1_000)
        try storage.store(Data(count: 10), forKey: "small")
        // When
        let error = #expect(throws: CacheError.self) { try storage.store(Data(count: 2_000), forKey: "big") }
        // Then
        guard case .entryTooLarge(let size, let limit) = error?.reason else {
            Issue.record("expected entryTooLarge")
            return
        }
        #expect(size > 2_000)
        #expect(limit == 1_000)
        #expect(error?.description.contains("Raise the size limit") == true)
        #expect(storage.value(forKey: "small") != nil)
    }

    @Test func aTruncatedFileIsAMissAndIsLeftInPlace() throws {
        // Given an entry cut in half: without its trailer, nothing says CacheKit wrote it
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        try storage.store(String(repeating: "x", count: 500), forKey: "k")
        let file = storage.fileURL(forKey: "k")
        let bytes = try Data(contentsOf: file)
        try bytes.prefix(bytes.count / 2).write(to: file)
        // When
        let value = storage.value(forKey: "k")
        // Then
        #expect(value == nil)
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(storage.count == 0)
    }

    @Test func aFileWithoutCacheKitsTrailerIsAMissAndIsLeftInPlace() throws {
        // Given another program's file under the entry's name, as Kingfisher names its files
        let log = EventLog()
        let storage = try DiskStorage<String>(in: folder, clock: clock, events: log)
        try storage.store("v", forKey: "k")
        let foreign = Data("not a cache file at all, just some garbage bytes here".utf8)
        try foreign.write(to: storage.fileURL(forKey: "k"))
        // When
        let value = storage.value(forKey: "k")
        // Then
        #expect(value == nil)
        #expect(try Data(contentsOf: storage.fileURL(forKey: "k")) == foreign)
        #expect(!log.all.contains { if case .removedCorruptEntry = $0 { true } else { false } })
    }

    @Test func anEntryWhosePayloadBytesWereDamagedIsAMissAndIsRemoved() throws {
        // Given a stored entry with one payload byte flipped and its trailer intact
        let log = EventLog()
        let storage = try DiskStorage<String>(in: folder, clock: clock, events: log)
        try storage.store("an image's bytes, say", forKey: "poster")
        let file = storage.fileURL(forKey: "poster")
        var bytes = try Data(contentsOf: file)
        bytes[3] ^= 0x20
        try bytes.write(to: file)
        // When
        let value = storage.value(forKey: "poster")
        // Then
        #expect(value == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(
            log.all.contains {
                if case .removedCorruptEntry(key: "poster", _, _) = $0 { true } else { false }
            })
    }

    @Test func aFileOwnedByAnotherKeyIsAMissAndIsKept() throws {
        // Given the valid entry of "x" sitting where "y" would be, as after a hash collision
        let first = try DiskStorage<String>(in: folder, clock: clock)
        try first.store("value of x", forKey: "x")
        try FileManager.default.moveItem(at: first.fileURL(forKey: "x"), to: first.fileURL(forKey: "y"))
        let reopened = try DiskStorage<String>(in: folder, clock: clock)
        // When
        let value = reopened.value(forKey: "y")
        // Then "y" misses and the file, which belongs to "x", stays
        #expect(value == nil)
        #expect(FileManager.default.fileExists(atPath: reopened.fileURL(forKey: "y").path))
        #expect(reopened.statistics.misses == 1)
    }

    @Test func foreignFilesFoundAtStartupAreLeftAlone() throws {
        // Given a folder with a foreign-named file and a 32-hex file another program wrote
        try Data("keep me".utf8).write(to: folder.url.appendingPathComponent("README.txt"))
        let hexName = String(repeating: "a", count: 32)
        try Data("junk".utf8).write(to: folder.url.appendingPathComponent(hexName))
        // When
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        // Then
        #expect(storage.count == 0)
        #expect(folder.fileNames.sorted() == ["README.txt", hexName])
    }

    @Test func aDamagedCacheKitFileFoundAtStartupIsRemoved() throws {
        // Given an entry of ours whose trailer no longer adds up (bytes appended)
        let first = try DiskStorage<String>(in: folder, clock: clock)
        try first.store("v", forKey: "k")
        let file = first.fileURL(forKey: "k")
        var bytes = try Data(contentsOf: file)
        bytes.insert(0x41, at: 0)
        try bytes.write(to: file)
        // When
        let reopened = try DiskStorage<String>(in: folder, clock: clock)
        // Then
        #expect(reopened.count == 0)
        #expect(folder.fileNames.isEmpty)
    }

    @Test func aValueThatCannotBeDecodedIsAMissAndIsRemoved() throws {
        // Given a valid file whose payload the type rejects
        let storage = try DiskStorage<Picky>(in: folder, clock: clock)
        try storage.store(Picky(text: "hello"), forKey: "k")
        // When
        let value = storage.value(forKey: "k")
        // Then
        #expect(value == nil)
        #expect(folder.fileNames.isEmpty)
        #expect(storage.statistics.misses == 1)
        #expect(storage.statistics.hits == 0)
    }

    @Test(arguments: [
        "../../etc/passwd", "/absolute/path", "a/b/c", "..", ".", "", "🎬🍿", "광해, 왕이 된 남자",
        String(repeating: "k", count: 10_000), "with\u{0}nul", "line\nbreak",
    ])
    func hostileKeysStayInsideTheDirectoryAndRoundTrip(key: String) throws {
        // Given
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        // When
        try storage.store("value", forKey: key)
        // Then
        #expect(storage.value(forKey: key) == "value")
        #expect(folder.fileNames.count == 1)
        #expect(storage.fileURL(forKey: key).deletingLastPathComponent().path == folder.url.path)
    }

    @Test func theEntryFileStartsWithTheValuesBytesSoItCanBeOpenedByPath() throws {
        // Given
        let storage = try DiskStorage<Data>(in: folder, clock: clock)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // When
        try storage.store(png, forKey: "https://example.com/poster.png")
        // Then
        let file = try Data(contentsOf: storage.fileURL(forKey: "https://example.com/poster.png"))
        #expect(file.prefix(8) == png)
    }

    @Test func removeAllDeletesEntriesButNotForeignFiles() throws {
        // Given
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        try storage.store("a", forKey: "a")
        try storage.store("b", forKey: "b")
        try Data("mine".utf8).write(to: folder.url.appendingPathComponent("notes.txt"))
        let kingfisherLike = String(repeating: "0123456789abcdef", count: 2)
        try Data("another cache's image".utf8).write(to: folder.url.appendingPathComponent(kingfisherLike))
        // When
        try storage.removeAll()
        // Then
        #expect(folder.fileNames.sorted() == [kingfisherLike, "notes.txt"])
        #expect(storage.count == 0)
        #expect(storage.totalSize == 0)
    }

    @Test func removeValueDeletesTheFile() throws {
        // Given
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        try storage.store("a", forKey: "a")
        // When
        try storage.removeValue(forKey: "a")
        // Then
        #expect(folder.fileNames.isEmpty)
        #expect(!storage.contains("a"))
    }

    @Test func aTemporaryFileOlderThanAMinuteIsCleanedAtStartup() throws {
        // Given a store that crashed before its rename two minutes ago, and another program's old .tmp file
        let entryName = String(repeating: "ab", count: 16)
        let leftover = folder.url.appendingPathComponent(".tmp-\(entryName)-4242-7-9f3c")
        let foreign = folder.url.appendingPathComponent(".tmp-editor-swap")
        for file in [leftover, foreign] {
            try Data("partial".utf8).write(to: file)
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(-120)], ofItemAtPath: file.path)
        }
        // When
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        // Then only CacheKit's leftover is gone
        #expect(storage.count == 0)
        #expect(folder.fileNames == [".tmp-editor-swap"])
    }

    @Test func anotherStoragesFreshTemporaryFileIsLeftAlone() throws {
        // Given another process's store in flight: its temporary file was written just now
        let name = ".tmp-\(String(repeating: "ab", count: 16))-4242-7-9f3c"
        try Data("partial".utf8).write(to: folder.url.appendingPathComponent(name))
        // When this storage opens and removes everything
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        _ = storage.count
        try storage.removeAll()
        // Then
        #expect(folder.fileNames == [name])
    }

    @Test func aTemporaryNameAnotherStorageUsesDoesNotFailAStore() throws {
        // Given two storages on one folder, as two processes share one, each numbering its stores from 1,
        // and the temporary names such numbering gave (before names carried the process and random bits)
        let first = try DiskStorage<String>(in: folder, clock: clock)
        let second = try DiskStorage<String>(in: folder, clock: clock)
        try first.store("warm", forKey: "warm")
        try second.store("warm", forKey: "warm")
        let name = first.fileURL(forKey: "k").lastPathComponent
        for generation in 1...4 {
            try Data().write(to: folder.url.appendingPathComponent(".tmp-\(name)-\(generation)"))
        }
        // When both store the same key
        try first.store("from first", forKey: "k")
        try second.store("from second", forKey: "k")
        // Then neither store collided
        #expect(first.value(forKey: "k") == "from second")
    }

    @Test func anUncreatableDirectoryIsAnOpenErrorNamingThePath() throws {
        // Given a path below a regular file
        let file = folder.url.appendingPathComponent("plain-file")
        try Data().write(to: file)
        let impossible = file.appendingPathComponent("cache")
        // When
        let error = #expect(throws: CacheError.self) {
            _ = try DiskStorage<String>(configuration: .init(directory: impossible))
        }
        // Then
        #expect(error?.operation == .open)
        #expect(error?.path == impossible.path)
    }

    @Test func limitsHoldAtTenThousandEntriesWithoutListingTheDirectoryPerStore() async throws {
        // Given room for 10,000 entries
        let storage = try DiskStorage<Data>(in: folder, clock: clock, countLimit: 10_000)
        let payload = Data(count: 64)
        // When 12,000 are stored (off the cooperative pool: it takes seconds in a debug build)
        try await offThePool {
            for index in 0..<12_000 {
                try storage.store(payload, forKey: "entry-\(index)")
            }
        }
        // Then the count never exceeded the limit and the directory was listed once
        #expect(storage.count <= 10_000)
        #expect(folder.fileNames.count == storage.count)
        #expect(storage.indexBuildCount == 1)
        #expect(storage.value(forKey: "entry-11999") == payload)
    }

    @Test func concurrentStoresAndReadsLoseNothing() async throws {
        // Given
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        // When 8 tasks each store and read back 50 keys of their own
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var mismatches = 0
                    for index in 0..<50 {
                        let key = "\(task)-\(index)"
                        do { try storage.store(key, forKey: key) } catch { mismatches += 1 }
                        if storage.value(forKey: key) != key { mismatches += 1 }
                    }
                    return mismatches
                }
            }
            return await group.reduce(0, +)
        }
        // Then
        #expect(mismatches == 0)
        #expect(storage.count == 400)
    }
}

extension DiskStorage {
    /// A fresh instance over the same folder, as after a restart.
    static func reopen(_ folder: TemporaryFolder, _ clock: ManualClock) -> DiskStorage<Value> {
        // The folder exists, so opening cannot fail; a failure would surface as a missing value.
        (try? DiskStorage<Value>(in: folder, clock: clock)) ?? { fatalError("cannot reopen \(folder.url)") }()
    }
}
