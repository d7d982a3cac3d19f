import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every public NetworkLayer API that takes a `Duration`, a `TimeInterval` or a count, at the extremes:
/// no value traps, and each reads as documented.
@Suite("NetworkLayer: durations and counts at the extremes")
struct ExtremeValueTests {
    static let durations: [Duration] = [
        .zero, .seconds(-5), .seconds(Int64.max), .seconds(Int64.max) + .seconds(1),
        .seconds(Int64.min) - .seconds(1), .seconds(Int64.min) * 2,
    ]
    static let counts: [Int] = [0, -1, .min, .max]

    static let url = URL(string: "https://api.example.com/films")!

    @Test(arguments: durations)
    func aRequestWithAnyTimeoutOrDeadlineAnswersOrTimesOut(_ limit: Duration) async throws {
        // Given an endpoint whose timeout and deadline are `limit`
        var endpoint = Endpoint<Data>(url: Self.url, timeout: limit)
        endpoint.deadline = limit
        // When it is sent, timed by the default clock and by another
        var suspending = NetworkProvider.Configuration()
        suspending.clock = SuspendingClock()
        let other = await error {
            // The answer takes a moment, so the timer is asleep by then.
            try await NetworkProvider(
                session: StubSession.json("{}").delayed(by: .milliseconds(50)), configuration: suspending
            )
            .send(endpoint)
        }
        let outcome = await error { try await NetworkProvider(session: .json("{}")).send(endpoint) }
        if limit > .seconds(1) { #expect(other == nil) }
        // Then it answered, or (a limit of zero or less) timed out: nothing trapped
        if limit > .seconds(1) {
            #expect(outcome == nil)
        } else if let outcome {
            try #require((outcome as? NetworkError)?.timeout != nil, "expected a timeout, got \(outcome)")
        }
    }

    @Test(arguments: durations)
    func aRetryPolicyWithAnyDelaysWaitsWithinThem(_ delay: Duration) async {
        // Given a retry policy whose delays are `delay`, and a server that fails once
        let waits = Recorder<Duration>()
        let retry = RetryMiddleware(
            policy: RetryPolicy(maxAttempts: 2, initialDelay: delay, maxDelay: delay),
            sleep: { waits.append($0) })
        let provider = NetworkProvider(
            session: .sequence([.status(503), .json("{}")]), middlewares: [retry])
        // When a request is sent
        _ = try? await provider.send(Endpoint<Data>(url: Self.url))
        // Then it waited once, never less than nothing and never more than the policy's longest wait
        #expect(waits.values.count == 1)
        #expect(waits.values.allSatisfy { $0 >= .zero && $0 <= max(delay, .zero) })
    }

    @Test(arguments: counts)
    func aRetryPolicyWithAnyAttemptCountSendsAtLeastOnceAndAtMostThat(_ attempts: Int) async {
        // Given a policy of `attempts` attempts, and a server that fails twice, then answers
        let retry = RetryMiddleware(policy: RetryPolicy(maxAttempts: attempts), sleep: { _ in })
        let session = StubSession.sequence([.status(503), .status(503), .json("{}")])
        // When a request is sent
        _ = try? await NetworkProvider(session: session, middlewares: [retry]).send(
            Endpoint<Data>(url: Self.url))
        // Then it was sent at least once, and at most `attempts` times (three for a large count)
        #expect(session.requests.count == min(max(attempts, 1), 3))
    }

    @Test(arguments: durations)
    func aStubDelayOfZeroOrLessAnswersAtOnce(_ delay: Duration) async throws {
        // Given a stub delayed by `delay`
        let stub = StubSession.json("{}").delayed(by: delay)
        // When a request is sent and, for a long delay, cancelled
        let task = Task { try await stub.response(for: URLRequest(url: Self.url)) }
        if delay > .seconds(1) { task.cancel() }
        // Then a short delay answers, a long one is cancelled: nothing trapped
        let result = await task.result
        #expect((try? result.get()) != nil || delay > .seconds(1))
    }

    @Test(arguments: durations)
    func aSourceOfAnyAgeDescribesItselfInWholeSeconds(_ age: Duration) {
        let text = ResponseSource.cache(age: age, isFresh: false).description
        #expect(text.hasPrefix("cache (stale, "))
        #expect(ResponseSource.staleAfterError(age: age, error: .notCached).description.hasPrefix("stale ("))
    }

    @Test(arguments: durations)
    func aCachePolicyTakesAnyStalenessAndLifetime(_ span: Duration) {
        let policy = CachePolicy.useProtocol.acceptingStaleOnError(upTo: span).assumingLifetime(span)
        #expect(policy.maximumStalenessOnError == max(span, .zero))
        #expect(policy.assumedLifetime == max(span, .zero))
    }

    @Test(arguments: counts)
    func anyResponseLimitOrStoreSizeWorksWithoutATrap(_ limit: Int) async {
        // Given a provider whose response and stream limits are `limit`, with a store of `limit` bytes
        var configuration = NetworkProvider.Configuration()
        configuration.maximumResponseSize = limit
        configuration.streamBufferLimit = limit
        configuration.httpCache = HTTPCache(store: MemoryHTTPCacheStore(byteLimit: limit))
        let provider = NetworkProvider(session: .json("{}"), configuration: configuration)
        // When a body of two bytes is asked for
        let outcome = await error { try await provider.send(Endpoint<Data>(url: Self.url)) }
        // Then a limit below two refuses it, with a typed error; nothing traps
        #expect((outcome == nil) == (limit >= 2), "\(limit): \(String(describing: outcome))")
    }
}
