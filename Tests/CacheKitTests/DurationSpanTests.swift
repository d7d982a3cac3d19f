import CacheKit
import Foundation
import TestSupport
import Testing

/// CacheKit's spans accept the `Duration`s NetworkLayer and Binding use.
@Suite("CacheKit: spans as Durations")
struct DurationSpanTests {
    @Test func anExpirationAfterADurationIsTheSameSpanInSeconds() {
        #expect(CacheExpiration.after(.seconds(600)) == .seconds(600))
        #expect(CacheExpiration.after(.milliseconds(1_500)) == .seconds(1.5))
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(CacheExpiration.until(date, renewingBy: Duration.seconds(60)) == .until(date, renewingBy: 60))
    }

    @Test func anEntryStoredToLiveADurationExpiresAfterIt() {
        // Given an entry stored to live five seconds, as a Duration
        let clock = ManualClock()
        let memory = MemoryStorage<String, String>(
            configuration: .init(sweepInterval: nil), clock: clock.cacheClock)
        memory.store("v", forKey: "k", expiration: .after(.seconds(5)))
        // When the clock passes four, then six seconds
        clock.advance(by: 4)
        let before = memory.value(forKey: "k", extendingExpiration: .none)
        clock.advance(by: 2)
        // Then it lived five
        #expect(before == "v")
        #expect(memory.value(forKey: "k") == nil)
    }

    @Test func aSweepPeriodIsTheSweepIntervalAsADuration() {
        var memory = MemoryStorage<String, String>.Configuration()
        memory.sweepPeriod = .seconds(90)
        #expect(memory.sweepInterval == 90)
        memory.sweepPeriod = nil
        #expect(memory.sweepInterval == nil)
        var disk = DiskStorage<String>.Configuration()
        disk.sweepInterval = 2.5
        #expect(disk.sweepPeriod == .milliseconds(2_500))
    }

    @Test(arguments: [Double?.none, .nan, .infinity, -.infinity, 1e300])
    func aDisabledSweepReadsNilAndWritingItBackKeepsItOff(_ interval: Double?) {
        // Given a sweep turned off by an interval the storages read as off
        var disk = DiskStorage<String>.Configuration()
        disk.sweepInterval = interval
        var memory = MemoryStorage<String, String>.Configuration()
        memory.sweepInterval = interval
        // When the period is read and written back
        let read = (disk.sweepPeriod, memory.sweepPeriod)
        disk.sweepPeriod = disk.sweepPeriod
        memory.sweepPeriod = memory.sweepPeriod
        // Then it read nil, and the sweep stays off
        #expect(read.0 == nil && read.1 == nil)
        #expect(disk.sweepInterval == nil && memory.sweepInterval == nil)
    }
}
