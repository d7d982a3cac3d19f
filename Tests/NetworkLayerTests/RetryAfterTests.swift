import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `Retry-After` comes from the server, so every value is hostile until parsed as RFC 9110 says: a
/// non-negative whole number of seconds, or an HTTP date. Nothing a server sends may trap.
@Suite("RetryMiddleware: hostile Retry-After values and extreme policies")
struct RetryAfterTests {
    let endpoint = Endpoint<Movie>(baseURL: exampleURL, path: "movie")
    let success = StubSession.json(#"{"title":"Wonka","year":2023}"#)
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func firstWait(retryAfter value: String, policy: RetryPolicy = RetryPolicy(jitter: 0)) async throws
        -> Duration?
    {
        let waits = Recorder<Duration>()
        let retry = RetryMiddleware(policy: policy) { waits.append($0) }
        let provider = NetworkProvider(
            session: .sequence([.status(503, headers: ["Retry-After": value]), success]), middlewares: [retry]
        )
        _ = try await provider.send(endpoint)
        return waits.values.first
    }

    @Test(arguments: ["inf", "-inf", "nan", "1e30", "-5", "3.5", "+3", "0x10", "３", ""])
    func aRetryAfterThatIsNotWholeSecondsOrADateFallsBackToTheBackoff(value: String) async throws {
        // Given a 503 whose Retry-After is not a valid value
        // When
        let wait = try await firstWait(retryAfter: value)
        // Then the computed backoff is used, and nothing traps
        #expect(wait == .milliseconds(500))
    }

    @Test func aRetryAfterTooLargeForAnyIntegerIsCappedAtTheLongestWait() async throws {
        // Given
        let policy = RetryPolicy(maxDelay: .seconds(10), jitter: 0)
        // When
        let wait = try await firstWait(retryAfter: "99999999999999999999999999999999", policy: policy)
        // Then
        #expect(wait == .seconds(10))
    }

    @Test func wholeSecondsWithSurroundingSpaceAreAccepted() {
        #expect(RetryAfter.delay(from: " 7 ", now: now) == .seconds(7))
    }

    @Test(arguments: [
        "Fri, 15 Jan 2027 08:00:30 GMT",  // IMF-fixdate
        "Friday, 15-Jan-27 08:00:30 GMT",  // obsolete RFC 850
        "Fri Jan 15 08:00:30 2027",  // obsolete asctime
    ])
    func eachHTTPDateFormTheRFCAllowsIsAWaitUntilThatMoment(value: String) throws {
        // Given a moment 30 seconds before the date
        let now = try #require(HTTPDate.parse("Fri, 15 Jan 2027 08:00:00 GMT"))
        // When
        let wait = RetryAfter.delay(from: value, now: now)
        // Then
        #expect(wait == .seconds(30))
    }

    @Test(arguments: [
        "Sat, 31 Feb 2027 08:00:00 GMT", "Fri, 15 Jan 2027 25:00:00 GMT", "Fri, 15 Foo 2027 08:00:00 GMT",
        "Fri, 15 Jan 2027 08:00:00 UTC", "Fri, 15 Jan 99999 08:00:00 GMT", "Friday, 15-Jan-2027 08:00:30 GMT",
    ])
    func aMalformedDateIsNotARetryAfter(value: String) {
        #expect(RetryAfter.delay(from: value, now: now) == nil)
    }

    @Test func aDateInThePastMeansRetryNow() {
        #expect(RetryAfter.delay(from: "Sun, 06 Nov 1994 08:49:37 GMT", now: now) == .zero)
    }

    @Test func theBackoffOfAVeryLateAttemptIsTheLongestWaitNotATrap() {
        // Given a policy with many attempts, whose exponential term overflows a Double
        let policy = RetryPolicy(maxAttempts: 5000, maxDelay: .seconds(30))
        // When
        let wait = policy.backoff(afterAttempt: 4000)
        // Then
        #expect(wait == .seconds(30))
    }

    @Test(arguments: [Double.nan, .infinity, -1, 1e300])
    func aPolicyWithAnUnusableMultiplierOrJitterStillProducesWaitsWithinBounds(value: Double) async throws {
        // Given
        let policy = RetryPolicy(multiplier: value, maxDelay: .seconds(30), jitter: value)
        let waits = Recorder<Duration>()
        let retry = RetryMiddleware(policy: policy, sleep: { waits.append($0) }, random: { 0.99 })
        let provider = NetworkProvider(
            session: .sequence([.status(503), .status(503), success]), middlewares: [retry])
        // When
        _ = try await provider.send(endpoint)
        // Then every wait is between zero and the longest wait
        #expect(waits.values.count == 2)
        #expect(waits.values.allSatisfy { $0 >= .zero && $0 <= .seconds(30) })
    }
}
