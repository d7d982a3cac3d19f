import Foundation
import TestSupport
import Testing

@testable import CacheKit

/// Every public CacheKit API that takes a `Duration`, a `TimeInterval` or a count, at the extremes: no
/// value traps, and each is read as its documentation says.
@Suite("CacheKit: durations, intervals and counts at the extremes")
struct ExtremeValueTests {
    static let durations: [Duration] = [
        .zero, .seconds(-5), .seconds(Int64.max), .seconds(Int64.max) + .seconds(1),
        .seconds(Int64.min) - .seconds(1), .seconds(Int64.min) * 2,
    ]
    static let intervals: [TimeInterval] = [
        0, -1, .nan, .infinity, -.infinity, 9.3e18, .greatestFiniteMagnitude,
    ]
    static let counts: [Int] = [0, -1, .min, .max]

    func memory() -> (MemoryStorage<String, String>, ManualClock) {
        let clock = ManualClock()
        return (MemoryStorage(configuration: .init(sweepInterval: nil), clock: clock.cacheClock), clock)
    }

    @Test(arguments: durations)
    func anEntryStoredToLiveAnyDurationLivesOnlyIfItIsPositive(_ duration: Duration) {
        // Given an entry stored to live `duration`
        let (storage, clock) = memory()
        storage.store("v", forKey: "k", expiration: .after(duration))
        clock.advance(by: 1)
        // When it is read a second later
        // Then it is there exactly when the span was longer than that
        #expect((storage.value(forKey: "k", extendingExpiration: .none) != nil) == (duration > .seconds(1)))
    }

    @Test(arguments: durations)
    func anEntryRenewedByAnyDurationIsStoredAndReadWithoutATrap(_ duration: Duration) {
        // Given an entry due in an hour, renewed by `duration` on each read
        let (storage, clock) = memory()
        storage.store(
            "v", forKey: "k", expiration: .until(clock.now.addingTimeInterval(3_600), renewingBy: duration))
        // When it is read, renewing it, and read again
        let first = storage.value(forKey: "k")
        _ = storage.value(forKey: "k")
        // Then nothing trapped, and the first read found it
        #expect(first == "v")
    }

    @Test(arguments: durations)
    func anySweepPeriodIsWrittenReadAndWrittenBackAsTheSame(_ duration: Duration) throws {
        // Given a configuration given `duration` as its sweep period
        var configuration = MemoryStorage<String, String>.Configuration()
        configuration.sweepPeriod = duration
        let read = configuration.sweepPeriod
        // When it is written back, and storages are made with it
        configuration.sweepPeriod = read
        _ = MemoryStorage<String, String>(configuration: configuration)
        let folder = TemporaryFolder()
        var disk = DiskStorage<Data>.Configuration(directory: folder.url)
        disk.sweepPeriod = duration
        _ = try DiskStorage<Data>(configuration: disk)
        // Then nothing trapped, and the period reads the same
        #expect(configuration.sweepPeriod == read)
        withExtendedLifetime(folder) {}  // removed only now, after the storage made it
    }

    @Test(arguments: intervals)
    func anEntryStoredToLiveAnyIntervalIsStoredAndReadWithoutATrap(_ seconds: TimeInterval) throws {
        // Given memory and disk storages
        let (storage, _) = memory()
        let folder = TemporaryFolder()
        let disk = try DiskStorage<Data>(directory: folder.url)
        // When an entry is stored to live `seconds`, and read
        storage.store("v", forKey: "k", expiration: .seconds(seconds))
        try disk.store(Data("v".utf8), forKey: "k", expiration: .seconds(seconds))
        // Then nothing traps, and only a long enough finite or infinite span keeps it
        let kept = seconds > 1
        #expect((storage.value(forKey: "k") != nil) == kept, "\(seconds)")
        #expect((disk.value(forKey: "k") != nil) == kept, "\(seconds)")
    }

    @Test(arguments: intervals)
    func anySweepIntervalMakesStoragesThatStoreAndRead(_ seconds: TimeInterval) throws {
        // Given storages whose sweep interval is `seconds`
        let memory = MemoryStorage<String, String>(configuration: .init(sweepInterval: seconds))
        let folder = TemporaryFolder()
        let disk = try DiskStorage<Data>(configuration: .init(directory: folder.url, sweepInterval: seconds))
        // When a value is stored in each
        memory.store("v", forKey: "k")
        try disk.store(Data("v".utf8), forKey: "k")
        // Then nothing trapped, and each reads it back
        #expect(memory.value(forKey: "k") == "v")
        #expect(disk.value(forKey: "k") == Data("v".utf8))
    }

    @Test(arguments: counts)
    func anyLimitMakesStoragesThatStoreWithoutATrap(_ limit: Int) throws {
        // Given storages whose every limit is `limit`
        let memory = MemoryStorage<String, String>(
            configuration: .init(countLimit: limit, totalCostLimit: limit, sweepInterval: nil))
        let folder = TemporaryFolder()
        let disk = try DiskStorage<Data>(
            configuration: .init(directory: folder.url, countLimit: limit, sizeLimit: limit))
        // When values are stored
        for index in 0..<3 {
            memory.store("v", forKey: "\(index)")
            try? disk.store(Data("v".utf8), forKey: "\(index)")
        }
        // Then nothing traps; a limit of zero or less keeps nothing, and the largest keeps every value
        if limit <= 0 {
            #expect(memory.value(forKey: "0") == nil)
            #expect(disk.value(forKey: "0") == nil)
        } else {
            #expect((0..<3).allSatisfy { memory.value(forKey: "\($0)") == "v" })
            #expect((0..<3).allSatisfy { disk.value(forKey: "\($0)") != nil })
        }
    }
}
