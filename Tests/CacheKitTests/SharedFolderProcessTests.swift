import Foundation
import TestSupport
import Testing

@testable import CacheKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Real processes on one folder, as an app and its extensions on an app-group container: this test's
/// process and children running `CacheKitTestProcess` (Tests/CacheKitTestProcess/main.swift). Children
/// are waited for on threads of their own (`onAThreadOfItsOwn`), never a pool's, which other tests need
/// meanwhile, and the tests run one at a time: four busy children at once are load enough.
@Suite(
    "A shared folder across real processes", .serialized,
    .timeLimit(.minutes(1)),
    // Cross-process behaviour, which ThreadSanitizer does not check: under it, this suite's children
    // stalled the rest of the full run for 30 seconds (not understood; the run passes without them).
    .enabled(if: !ThreadSanitizer.isRunning, "not run under ThreadSanitizer"))
struct SharedFolderProcessTests {
    let folder: TemporaryFolder
    let child: ChildProcess

    init() throws {
        folder = try TemporaryFolder.create("shared-processes")
        child = try ChildProcess("CacheKitTestProcess")
    }

    /// A storage of this process on the folder, its index built before any child runs.
    func longLivedStorage(sizeLimit: Int = 150 * 1024 * 1024) throws -> DiskStorage<Data> {
        let storage = try DiskStorage<Data>(
            configuration: .init(
                directory: folder.url, sizeLimit: sizeLimit, sweepInterval: nil, sharedAcrossProcesses: true))
        _ = storage.count
        return storage
    }

    /// Runs the child with `arguments` after the folder, and expects it to succeed.
    func inAnotherProcess(_ arguments: String...) async throws {
        let child = child
        let list = [arguments[0], folder.url.path] + arguments.dropFirst()
        let ending = try await onAThreadOfItsOwn { try child.run(list) }
        #expect(ending.status == 0, "\(ending.errors)")
    }

    @Test func aStoreByAnotherProcessIsReadByALongLivedOne() async throws {
        // Given a process that has indexed the folder
        let app = try longLivedStorage()
        // When another process stores a value
        try await inAnotherProcess("store", "poster", "from the widget")
        // Then the first reads it
        #expect(app.value(forKey: "poster") == Data("from the widget".utf8))
    }

    @Test func aReplacementByAnotherProcessIsReadByALongLivedOne() async throws {
        // Given a value a long-lived process stored
        let app = try longLivedStorage()
        try await app.store(Data("old".utf8), forKey: "poster")
        // When another process replaces it
        try await inAnotherProcess("store", "poster", "a longer new value")
        // Then the first reads the new value, and its index counts the new size
        #expect(app.value(forKey: "poster") == Data("a longer new value".utf8))
        #expect(app.totalSize == folder.entryBytes)
    }

    @Test func aRemoveByAnotherProcessIsSeenByALongLivedOne() async throws {
        // Given a value a long-lived process stored
        let app = try longLivedStorage()
        try await app.store(Data("old".utf8), forKey: "poster")
        // When another process removes it
        try await inAnotherProcess("remove", "poster")
        // Then the first neither holds nor reads it
        #expect(!app.contains("poster"))
        #expect(app.value(forKey: "poster") == nil)
    }

    @Test func removeAllByAnotherProcessIsSeenByALongLivedOne() async throws {
        // Given values a long-lived process stored
        let app = try longLivedStorage()
        for index in 0..<3 { try await app.store(Data("value".utf8), forKey: "k\(index)") }
        // When another process removes everything
        try await inAnotherProcess("removeAll")
        // Then the first holds nothing
        #expect(!app.contains("k1"))
        #expect(app.count == 0)
        #expect(app.totalSize == 0)
    }

    @Test func fourProcessesWritingAtOnceKeepTheFolderWithinOneLimit() async throws {
        // Given four processes, each with a 200,000-byte limit on one folder
        let limit = 200_000
        // When each stores 100 values of 10,000 bytes at once (a million bytes each)
        let (child, path) = (child, folder.url.path)
        let endings = try await onAThreadOfItsOwn {
            try child.runTogether((0..<4).map { ["fill", path, "\(limit)", "100", "10000", "writer\($0)"] })
        }
        // Then the folder holds at most 1.25 times the one limit
        for ending in endings { #expect(ending.status == 0, "\(ending.errors)") }
        #expect(folder.entryBytes <= limit * 5 / 4)
        #expect(folder.entryBytes > 0)
    }

    @Test func fourProcessesStoringRemovingAndReadingSharedKeysReadNothingWrong() async throws {
        // Given four processes on one folder
        // When each stores, removes and reads the same 16 keys for two seconds
        let (child, path) = (child, folder.url.path)
        let endings = try await onAThreadOfItsOwn {
            try child.runTogether((1...4).map { ["churn", path, "2", "\($0)"] })
        }
        // Then every process read only whole values of the key it asked for
        for ending in endings {
            #expect(ending.status == 0, "\(ending.errors)")
            let counts = ending.output.split(separator: " ").compactMap {
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            #expect(counts.count == 2 && counts[1] > 0, "each process read values: \(ending.output)")
        }
    }

    @Test func aProcessKilledWhileHoldingTheFoldersLockBlocksNobody() async throws {
        // Given another process that holds the folder's lock
        let app = try longLivedStorage()
        let (child, path) = (child, folder.url.path)
        let holder = try child.start(["hold", path])
        let said = try await onAThreadOfItsOwn { holder.firstOutput() }
        #expect(String(decoding: said, as: UTF8.self) == "held\n")
        #expect(!Self.lockIsFree(in: folder))
        // When it is killed
        let ending = try await onAThreadOfItsOwn { holder.kill() }
        #expect(ending.status == 128 + SIGKILL)
        // Then the lock is free, and a store here goes through
        #expect(Self.lockIsFree(in: folder))
        try await app.store(Data("after".utf8), forKey: "poster")
        #expect(app.value(forKey: "poster") == Data("after".utf8))
    }

    /// Whether the folder's lock can be taken now, without waiting.
    static func lockIsFree(in folder: TemporaryFolder) -> Bool {
        let descriptor = open(folder.url.appendingPathComponent(SharedJournal.fileName).path, O_RDWR)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        flock(descriptor, LOCK_UN)
        return true
    }
}

extension TemporaryFolder {
    /// The bytes the folder's entry files take (not the journal or temporary files).
    var entryBytes: Int {
        fileNames.filter { !$0.hasPrefix(".") }.reduce(0) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(
                atPath: url.appendingPathComponent(name).path)
            return total + ((attributes?[.size] as? Int) ?? 0)
        }
    }
}
