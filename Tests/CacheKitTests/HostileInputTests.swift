import Foundation
import TestSupport
import Testing

@testable import CacheKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The cache folder is outside the cache's control: another process, a user or an attacker may put
/// anything there under an entry's name. And configuration values may come from anywhere. Neither may
/// make the cache trap or hang.
@Suite("CacheKit: hostile files and configuration values")
struct HostileInputTests {
    let folder: TemporaryFolder
    let clock = ManualClock()

    init() throws {
        folder = try TemporaryFolder.create("CacheKitTests")
    }

    // MARK: - Configuration

    @Test(arguments: [1.0, 2.0, -1.0, Double.nan, Double.infinity])
    func anyTrimRatioTrimsWithoutTrappingAndKeepsTheLimits(ratio: Double) throws {
        // Given a storage of at most 3 entries with an unusual trim ratio
        let storage = try DiskStorage<String>(
            configuration: .init(directory: folder.url, countLimit: 3, trimRatio: ratio),
            clock: clock.cacheClock)
        // When more entries are stored than fit
        for index in 0..<10 { try storage.store("v", forKey: "k\(index)") }
        // Then the limit holds and the newest entry is kept
        #expect(storage.count <= 3)
        #expect(storage.value(forKey: "k9") == "v")
    }

    @Test func aTrimRatioOfOneWithNoCountLimitDoesNotTrapOnTheFirstTrim() throws {
        // Given the default count limit (none) and a size limit that the second store exceeds
        let storage = try DiskStorage<String>(
            configuration: .init(directory: folder.url, sizeLimit: 200, trimRatio: 1.0),
            clock: clock.cacheClock)
        // When
        try storage.store(String(repeating: "a", count: 100), forKey: "a")
        try storage.store(String(repeating: "b", count: 100), forKey: "b")
        // Then
        #expect(storage.totalSize <= 200)
    }

    @Test func aStorageReportsItsConfigurationAsClamped() throws {
        // Given
        let storage = try DiskStorage<String>(
            configuration: .init(directory: folder.url, countLimit: -5, sizeLimit: -1, trimRatio: .nan),
            clock: clock.cacheClock)
        // Then
        #expect(storage.configuration.countLimit == 0)
        #expect(storage.configuration.sizeLimit == 0)
        #expect(storage.configuration.trimRatio == 0.8)
    }

    @Test(arguments: [Double.nan, .infinity, -1, 0, 1e300])
    func anySweepIntervalMakesAWorkingMemoryStorage(interval: Double) {
        // Given / When
        let storage = MemoryStorage<String, String>(configuration: .init(sweepInterval: interval))
        storage.store("v", forKey: "k")
        // Then
        #expect(storage.value(forKey: "k") == "v")
    }

    @Test func costsThatWouldOverflowTheTotalAreSaturatedNotTrapped() {
        // Given values that each claim the largest cost
        let storage = MemoryStorage<String, String>(
            configuration: .init(sweepInterval: nil, cost: { _ in .max }), clock: clock.cacheClock)
        // When
        storage.store("a", forKey: "a")
        storage.store("b", forKey: "b")
        // Then the total never passes the limit
        #expect(storage.totalCost <= Int.max)
        #expect(storage.value(forKey: "b") == "b")
    }

    // MARK: - Files in the folder

    @Test func anEntryWhoseLengthsOverflowIsAMissNotATrap() throws {
        // Given a file under an entry's name whose trailer claims a payload of Int.max bytes
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        let path = storage.fileURL(forKey: "crafted").path
        var file = Data("payload".utf8)
        file.append(EntryFile.encode(StoredExpiration(deadline: 1e12, duration: 60)))
        file.append(littleEndian: UInt64(Int.max))
        file.append(littleEndian: UInt32(10))
        file.append(littleEndian: UInt32(1))
        file.append(contentsOf: Array("CacheKit".utf8))
        try file.write(to: URL(fileURLWithPath: path))
        // When the index is built and the entry read
        let count = storage.count
        let value = storage.value(forKey: "crafted")
        // Then
        #expect(count == 0)
        #expect(value == nil)
    }

    @Test func aHugeSparseEntryWhoseLengthsAddUpIsAMissNotAnAllocation() throws {
        // Given a 1 TB sparse file under an entry's name, whose trailer claims exactly that payload
        let storage = try DiskStorage<Data>(in: folder, clock: clock)
        let path = storage.fileURL(forKey: "k").path
        let payloadLength = 1 << 40
        var trailer = EntryFile.encode(StoredExpiration(deadline: 1e12, duration: 60))
        trailer.append(littleEndian: UInt64(payloadLength))
        trailer.append(littleEndian: UInt32(1))
        trailer.append(littleEndian: UInt32(1))
        trailer.append(contentsOf: Array("CacheKit".utf8))
        let descriptor = open(path, O_CREAT | O_WRONLY, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(ftruncate(descriptor, off_t(payloadLength + 1)) == 0)
        let written = Array("k".utf8 + trailer).withUnsafeBytes {
            pwrite(descriptor, $0.baseAddress, $0.count, off_t(payloadLength))
        }
        try #require(written == 1 + trailer.count)
        // When
        let count = storage.count
        let value = storage.value(forKey: "k")
        // Then the file is not read whole, is not an entry, and is left alone
        #expect(count == 0)
        #expect(value == nil)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func anEntryLargerThanThisStoragesLimitIsLeftForTheStorageThatWroteIt() throws {
        // Given an entry written by a storage with a larger limit, in a folder two storages share
        let large = try DiskStorage<String>(in: folder, clock: clock, sizeLimit: 10_000)
        try large.store(String(repeating: "x", count: 5_000), forKey: "k")
        // When a storage with a smaller limit opens the folder and reads the key
        let small = try DiskStorage<String>(in: folder, clock: clock, sizeLimit: 1_000)
        let seen = small.value(forKey: "k")
        // Then it skips the entry, and the file is still there for the other storage
        #expect(seen == nil)
        #expect(DiskStorage<String>.reopen(folder, clock).value(forKey: "k")?.count == 5_000)
    }

    @Test func aFIFOUnderAnEntrysNameIsSkippedWithoutHanging() throws {
        // Given a named pipe where an entry's file would be
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        let path = storage.fileURL(forKey: "pipe").path
        try #require(mkfifo(path, 0o644) == 0)
        // When the index is built and the key read
        let finished = Watchdog.finishes {
            _ = storage.count
            _ = storage.value(forKey: "pipe")
        }
        // Then nothing blocked, and the pipe was left alone
        try #require(finished, "opening the FIFO blocked")
        #expect(storage.count == 0)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func aSymlinkUnderAnEntrysNameIsNotFollowed() throws {
        // Given a valid entry written elsewhere, and a symbolic link to it under the key's name
        let elsewhere = try TemporaryFolder.create("CacheKitTests")
        let source = try DiskStorage<String>(in: elsewhere, clock: clock)
        try source.store("from elsewhere", forKey: "k")
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        try FileManager.default.createSymbolicLink(
            atPath: storage.fileURL(forKey: "k").path, withDestinationPath: source.fileURL(forKey: "k").path)
        // When
        let value = storage.value(forKey: "k")
        // Then
        #expect(value == nil)
        #expect(storage.count == 0)
    }
}

extension Data {
    fileprivate mutating func append<T: FixedWidthInteger>(littleEndian value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
