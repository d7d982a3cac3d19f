import Foundation
import TestSupport
import Testing

@testable import CacheKit

/// The storages let go of values after unlocking, so a cached value's `deinit` may call into the same
/// storage, and user code (a clock) is never called under a lock. Each test would hang without that
/// rule; the watchdog turns a hang into a failure.
@Suite("CacheKit: a deinit may call back into the cache")
struct DeinitReentrancyTests {
    let clock = ManualClock()

    /// A storage whose values, when released, read the storage.
    func makeStorage(countLimit: Int = .max) -> (MemoryStorage<String, Reader>, Recorder<String>) {
        let storage = MemoryStorage<String, Reader>(
            configuration: .init(countLimit: countLimit, expiration: .seconds(60), sweepInterval: nil),
            clock: clock.cacheClock)
        return (storage, Recorder())
    }

    func reader(_ name: String, of storage: MemoryStorage<String, Reader>, into log: Recorder<String>)
        -> Reader
    {
        Reader { [weak storage] in
            _ = storage?.count
            log.append(name)
        }
    }

    @Test func evictingAValueWhoseDeinitReadsTheStorageReturns() throws {
        // Given a full storage
        let (storage, released) = makeStorage(countLimit: 1)
        storage.store(reader("a", of: storage, into: released), forKey: "a")
        // When a store evicts a
        let finished = Watchdog.finishes {
            storage.store(reader("b", of: storage, into: released), forKey: "b")
        }
        // Then
        try #require(finished, "the evicting store deadlocked")
        #expect(released.values == ["a"])
    }

    @Test func replacingAValueWhoseDeinitReadsTheStorageReturns() throws {
        // Given
        let (storage, released) = makeStorage()
        storage.store(reader("old", of: storage, into: released), forKey: "a")
        // When
        let finished = Watchdog.finishes {
            storage.store(reader("new", of: storage, into: released), forKey: "a")
        }
        // Then
        try #require(finished, "the replacing store deadlocked")
        #expect(released.values == ["old"])
    }

    @Test func removingAValueWhoseDeinitReadsTheStorageReturns() throws {
        // Given
        let (storage, released) = makeStorage()
        storage.store(reader("a", of: storage, into: released), forKey: "a")
        // When
        let finished = Watchdog.finishes { storage.removeValue(forKey: "a") }
        // Then
        try #require(finished, "removeValue deadlocked")
        #expect(released.values == ["a"])
    }

    @Test func removingAllValuesWhoseDeinitsReadTheStorageReturns() throws {
        // Given
        let (storage, released) = makeStorage()
        storage.store(reader("a", of: storage, into: released), forKey: "a")
        storage.store(reader("b", of: storage, into: released), forKey: "b")
        // When
        let finished = Watchdog.finishes { storage.removeAll() }
        // Then
        try #require(finished, "removeAll deadlocked")
        #expect(Set(released.values) == ["a", "b"])
    }

    @Test func readingAnExpiredValueWhoseDeinitReadsTheStorageReturns() throws {
        // Given an entry that has expired
        let (storage, released) = makeStorage()
        storage.store(reader("a", of: storage, into: released), forKey: "a")
        clock.advance(by: 61)
        // When the read finds it expired and removes it
        let finished = Watchdog.finishes { _ = storage.value(forKey: "a") }
        // Then
        try #require(finished, "the expiring read deadlocked")
        #expect(released.values == ["a"])
    }

    @Test func sweepingExpiredValuesWhoseDeinitsReadTheStorageReturns() throws {
        // Given
        let (storage, released) = makeStorage()
        storage.store(reader("a", of: storage, into: released), forKey: "a")
        clock.advance(by: 61)
        // When
        let finished = Watchdog.finishes { storage.removeExpired() }
        // Then
        try #require(finished, "removeExpired deadlocked")
        #expect(released.values == ["a"])
    }

    @Test func trimmingValuesWhoseDeinitsReadTheStorageReturns() throws {
        // Given
        let (storage, released) = makeStorage()
        storage.store(reader("a", of: storage, into: released), forKey: "a")
        // When
        let finished = Watchdog.finishes { storage.trim(toCount: 0) }
        // Then
        try #require(finished, "trim deadlocked")
        #expect(released.values == ["a"])
    }

    @Test func theCacheNeverCallsItsClockWhileHoldingTheInFlightLoads() async throws {
        // Given a cache whose clock asks the cache how many loads are in flight
        let folder = try TemporaryFolder.create("CacheKitTests")
        let cacheBox = Recorder<Cache<String>>()
        let clock = CacheClock {
            _ = cacheBox.values.first?.loadsInFlight
            return Date(timeIntervalSince1970: 1_800_000_000)
        }
        let cache = try Cache<String>(directory: folder.url, clock: clock)
        cacheBox.append(cache)
        // When a miss starts a load
        let finished = await Watchdog.finishes {
            _ = try? await cache.value(forKey: "a") { "loaded" }
        }
        // Then
        try #require(finished, "the load deadlocked")
        #expect(await cache.value(forKey: "a") == "loaded")
    }
}

/// A cached value that runs `onDeinit` when released.
final class Reader: Sendable {
    let onDeinit: @Sendable () -> Void
    init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}
