import Dispatch
import Foundation
import TestSupport
import Testing

@testable import CacheKit

/// A store held between writing its temporary file and renaming it, through the storage's test hook.
final class HeldStore: Sendable {
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let failure = EventLog()

    /// Starts `store` on another thread and returns once it is held before its rename.
    init(_ storage: DiskStorage<String>, storing value: String, forKey key: String) {
        let entered = entered
        let release = release
        let heldAtHook = heldAtHook
        storage.setBeforeRename { storedKey in
            guard storedKey == key else { return }
            storage.setBeforeRename(nil)
            heldAtHook.record(.hit(.disk, key: storedKey))
            entered.signal()
            _ = release.wait(timeout: .now() + 10)
        }
        let finished = finished
        let failure = failure
        Thread {
            do { try storage.store(value, forKey: key) } catch {
                failure.record(.miss(.disk, key: "\(error)"))
            }
            finished.signal()
        }.start()
        _ = entered.wait(timeout: .now() + 10)
    }

    /// Whether the store reached the hook (`init` waits at most 10 seconds for it).
    var wasHeld: Bool {
        heldAtHook.all.count == 1
    }
    private let heldAtHook = EventLog()

    /// Lets the store rename its file and waits for it to return.
    func finish() {
        release.signal()
        _ = finished.wait(timeout: .now() + 10)
    }
}

@Suite("DiskStorage: file work outside the lock")
struct DiskConcurrencyTests {
    let folder: TemporaryFolder
    let clock = ManualClock()

    init() throws {
        folder = try TemporaryFolder.create("CacheKitTests")
    }

    @Test func aHitOnAnotherKeyIsNotHeldUpByAStoreInProgress() throws {
        // Given "a" on disk and a store of "b" held in the middle of its write
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        try storage.store("a", forKey: "a")
        let held = HeldStore(storage, storing: "b", forKey: "b")
        #expect(held.wasHeld)
        // When "a" is read, and stored, meanwhile
        let finished = Watchdog.finishes(within: 30) {
            _ = storage.value(forKey: "a")
            try? storage.store("a2", forKey: "a")
        }
        held.finish()
        // Then both finished while the store of "b" was still writing
        #expect(finished)
        #expect(storage.value(forKey: "a") == "a2")
        #expect(storage.value(forKey: "b") == "b")
    }

    @Test func ofTwoStoresOfOneKeyTheOneCalledLastWins() throws {
        // Given a store of "first" held before its rename
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        let held = HeldStore(storage, storing: "first", forKey: "k")
        #expect(held.wasHeld)
        // When "second" is stored and completes, then the first store renames
        try storage.store("second", forKey: "k")
        held.finish()
        // Then the later call wins, the earlier store reported no error, and no temporary file is left
        #expect(storage.value(forKey: "k") == "second")
        #expect(held.failure.all.isEmpty)
        #expect(folder.fileNames == [storage.fileURL(forKey: "k").lastPathComponent])
        #expect(storage.count == 1)
    }

    @Test func aRemoveCalledDuringAStoreWins() throws {
        // Given
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        try storage.store("old", forKey: "k")
        let held = HeldStore(storage, storing: "new", forKey: "k")
        #expect(held.wasHeld)
        // When
        try storage.removeValue(forKey: "k")
        held.finish()
        // Then
        #expect(storage.value(forKey: "k") == nil)
        #expect(folder.fileNames.isEmpty)
    }

    @Test func aStoreAndAHitOfOtherKeysAreNotHeldUpByAReadInProgress() throws {
        // Given "a" being read, held after its index lookup and before reading its file
        let storage = try DiskStorage<String>(in: folder, clock: clock)
        try storage.store("a", forKey: "a")
        try storage.store("c", forKey: "c")
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        storage.setBeforeReadingFile { key in
            guard key == "a" else { return }
            entered.signal()
            _ = release.wait(timeout: .now() + 10)
        }
        let read = EventLog()
        Thread {
            if let value = storage.value(forKey: "a") { read.record(.hit(.disk, key: value)) }
            finished.signal()
        }.start()
        #expect(entered.wait(timeout: .now() + 10) == .success)
        // When another key is stored and another read meanwhile
        let unblocked = Watchdog.finishes(within: 30) {
            try? storage.store("b", forKey: "b")
            _ = storage.value(forKey: "c")
        }
        release.signal()
        _ = finished.wait(timeout: .now() + 10)
        // Then both finished while the read of "a" was held, and the read still found its value
        #expect(unblocked)
        #expect(read.all == [.hit(.disk, key: "a")])
        #expect(storage.value(forKey: "b") == "b")
    }

    @Test func manyThreadsStoringAndReadingKeepTheIndexConsistent() throws {
        // Given a storage small enough to trim while threads store and read
        let storage = try DiskStorage<String>(in: folder, clock: clock, countLimit: 20)
        // When
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<60 {
                let key = "\(thread)-\(index % 15)"
                try? storage.store(String(repeating: "x", count: index), forKey: key)
                _ = storage.value(forKey: key)
                if index % 7 == 0 { try? storage.removeValue(forKey: key) }
            }
        }
        // Then the index matches the directory, file for file and byte for byte
        let files = folder.fileNames.filter { !$0.hasPrefix(".tmp-") }
        #expect(storage.count == files.count)
        #expect(storage.count <= 20)
        let bytes = try files.reduce(0) {
            $0
                + (try FileManager.default.attributesOfItem(
                    atPath: folder.url.appendingPathComponent($1).path)[.size]
                    as? Int ?? 0)
        }
        #expect(storage.totalSize == bytes)
        #expect(!folder.fileNames.contains { $0.hasPrefix(".tmp-") })
    }
}
