import CacheKit
import Foundation
import Testing

@Suite("CacheExpiration")
struct ExpirationTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func eachExpirationComputesItsDate() {
        #expect(CacheExpiration.never.expirationDate(from: now) == .distantFuture)
        #expect(CacheExpiration.seconds(30).expirationDate(from: now) == now.addingTimeInterval(30))
        #expect(CacheExpiration.days(7).expirationDate(from: now) == now.addingTimeInterval(7 * 86_400))
        #expect(CacheExpiration.date(now).expirationDate(from: .distantPast) == now)
    }

    @Test func aZeroOrPastExpirationIsExpiredOnArrival() {
        #expect(CacheExpiration.seconds(0).isExpired(at: now))
        #expect(CacheExpiration.date(now.addingTimeInterval(-1)).isExpired(at: now))
        #expect(!CacheExpiration.never.isExpired(at: now))
    }

    @Test func stringRejectsBytesThatAreNotUTF8() {
        // When
        let error = #expect(throws: DataConversionError.self) {
            try String.fromData(Data([0xFF, 0xFE, 0xFD]))
        }
        // Then
        #expect(
            error?.description == "Cannot make String from the cached bytes: the bytes are not valid UTF-8.")
    }
}
