import Foundation
import Testing

@testable import CacheKit

/// `CacheClock.system` is read without a `Date` on the memory tier's hit path; it must be the same
/// wall clock `Date()` reads.
@Suite("CacheClock.system: the wall clock, read directly")
struct SystemClockTests {
    @Test
    func theSystemClockReadsTheSameTimeAsDate() {
        // Given the wall clock read through Date() just before and just after
        let before = Date().timeIntervalSince1970
        // When the system clock is read as seconds
        let seconds = CacheClock.system.secondsSince1970()
        let after = Date().timeIntervalSince1970
        // Then it falls between the two (a microsecond either way for rounding)
        #expect(seconds >= before - 0.000_001)
        #expect(seconds <= after + 0.000_001)
    }

    @Test
    func aMemoryHitOnTheSystemClockRenewsFromTheTimeOfTheRead() throws {
        // Given an entry on the system clock that expires in an hour and is renewed by 60 s on a read
        let storage = MemoryStorage<String, String>(configuration: .init(sweepInterval: nil))
        storage.store("v", forKey: "k", expiration: .until(Date().addingTimeInterval(3_600), renewingBy: 60))
        // When it is read
        let before = Date().timeIntervalSince1970
        let read = try #require(storage.entry(forKey: "k", extending: .cacheTime))
        let after = Date().timeIntervalSince1970
        // Then its deadline is 60 seconds after the read, not the hour it was stored with
        #expect(read.expiration.deadline >= before + 60 - 0.000_001)
        #expect(read.expiration.deadline <= after + 60 + 0.000_001)
    }

    @Test
    func aClockMadeFromAClosureIsReadThroughIt() {
        // Given a clock that says 1970 plus 1,000 seconds
        let clock = CacheClock { Date(timeIntervalSince1970: 1_000) }
        // Then its seconds are the closure's
        #expect(clock.secondsSince1970() == 1_000)
    }
}
