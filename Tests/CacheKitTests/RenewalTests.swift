import Foundation
import TestSupport
import Testing

@testable import CacheKit

/// The renewal table in Docs/CacheKit.md, row by row, in both tiers.
@Suite("Expiration: what a read does to each kind")
struct RenewalTests {
    let clock = ManualClock()
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder.create("CacheKitTests")
    }

    /// Stores with `expiration`, reads at +50 s with `extending`, and says whether the entry is alive at +150 s.
    func aliveAfterRead(
        _ expiration: CacheExpiration, extending: ExpirationExtending, disk: Bool
    ) throws -> Bool {
        if disk {
            let storage = try DiskStorage<String>(in: folder, clock: clock)
            try storage.store("v", forKey: "k", expiration: expiration)
            clock.advance(by: 50)
            _ = storage.value(forKey: "k", extendingExpiration: extending)
            clock.advance(by: 100)
            return storage.value(forKey: "k", extendingExpiration: .none) != nil
        }
        let storage = MemoryStorage<String, String>(
            configuration: .init(sweepInterval: nil), clock: clock.cacheClock)
        storage.store("v", forKey: "k", expiration: expiration)
        clock.advance(by: 50)
        _ = storage.value(forKey: "k", extendingExpiration: extending)
        clock.advance(by: 100)
        return storage.value(forKey: "k", extendingExpiration: .none) != nil
    }

    @Test(arguments: [false, true])
    func aFixedDateIsNotMovedByReads(disk: Bool) throws {
        // Given an entry that expires at +120 s, read at +50 s under the default renewal
        let deadline = clock.now.addingTimeInterval(120)
        // Then it is gone at +150 s
        #expect(try !aliveAfterRead(.date(deadline), extending: .cacheTime, disk: disk))
    }

    @Test(arguments: [false, true])
    func secondsAreRenewedForTheirDurationFromTheRead(disk: Bool) throws {
        // Given a 120-second entry read at +50 s: it now lives until +170 s
        #expect(try aliveAfterRead(.seconds(120), extending: .cacheTime, disk: disk))
    }

    @Test(arguments: [false, true])
    func noRenewalLeavesTheDeadline(disk: Bool) throws {
        #expect(try !aliveAfterRead(.seconds(120), extending: .none, disk: disk))
    }

    @Test(arguments: [false, true])
    func aNewExpirationCountsFromTheRead(disk: Bool) throws {
        // Given a 60-second entry read at +50 s with a new 200-second expiration
        #expect(try aliveAfterRead(.seconds(60), extending: .newExpiration(.seconds(200)), disk: disk))
    }

    @Test(arguments: [false, true])
    func anUntilDateIsRenewedByItsOwnSpan(disk: Bool) throws {
        // Given an entry due at +60 s that renews by 120 s: read at +50 s, it lives until +170 s
        let until = CacheExpiration.until(clock.now.addingTimeInterval(60), renewingBy: 120)
        #expect(try aliveAfterRead(until, extending: .cacheTime, disk: disk))
    }

    @Test(arguments: [false, true])
    func aStoreExpiredOnArrivalRemovesTheKeyAndTakesNoSlot(disk: Bool) throws {
        // Given "old" stored and a second live entry
        let log = EventLog()
        let memory = MemoryStorage<String, String>(
            configuration: .init(countLimit: 2, sweepInterval: nil, onEvent: { log.record($0) }),
            clock: clock.cacheClock)
        let onDisk = try DiskStorage<String>(in: folder, clock: clock, countLimit: 2, events: log)
        let store: (String, String, CacheExpiration?) throws -> Void = { value, key, expiration in
            if disk {
                try onDisk.store(value, forKey: key, expiration: expiration)
            } else {
                memory.store(value, forKey: key, expiration: expiration)
            }
        }
        try store("old", "k", nil)
        try store("live", "other", nil)
        // When "k" is stored with a date in the past
        try store("dead", "k", .date(clock.now.addingTimeInterval(-1)))
        // Then "k" is gone, "other" stays, and nothing was evicted for it
        #expect((disk ? onDisk.value(forKey: "k") : memory.value(forKey: "k")) == nil)
        #expect((disk ? onDisk.value(forKey: "other") : memory.value(forKey: "other")) == "live")
        #expect(!log.all.contains { if case .evicted = $0 { true } else { false } })
    }

    @Test func neverStaysNever() {
        let stored = StoredExpiration(.never, now: clock.now)
        #expect(stored.extended(by: .cacheTime, now: clock.now) == nil)
        #expect(stored.asCacheExpiration == .never)
    }

    @Test(arguments: [Double.nan, -Double.infinity, -1, 0])
    func anUnusableDurationIsExpiredOnArrival(seconds: Double) {
        #expect(CacheExpiration.seconds(seconds).isExpired(at: clock.now))
    }
}
