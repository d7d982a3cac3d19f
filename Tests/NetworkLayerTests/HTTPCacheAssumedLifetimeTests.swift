import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Answers that say nothing of their freshness (many image hosts), kept for a lifetime the endpoint
/// chooses (`CachePolicy.assumingLifetime(_:)`).
@Suite("HTTP cache: an assumed lifetime")
struct HTTPCacheAssumedLifetimeTests {
    private func sourcesOfTwoRequests(
        headers: [String: String], policy: CachePolicy, after seconds: Double
    ) async throws -> (second: ResponseSource, requests: Int) {
        let origin = ScriptedOrigin()
        origin.answer(.init(headers: headers))
        let provider = origin.provider()
        _ = try await provider.send(origin.film(policy: policy))
        origin.date.advance(by: seconds)
        let second = try await provider.response(for: origin.film(policy: policy))
        return (second.source, origin.requests.count)
    }

    @Test func anAnswerWithoutFreshnessIsAskedForAgainByDefault() async throws {
        // Given an answer with no Cache-Control, Expires or Last-Modified, and the default policy
        // When it is asked for again a minute later
        let (source, requests) = try await sourcesOfTwoRequests(headers: [:], policy: .useProtocol, after: 60)
        // Then the server is asked again
        #expect(source.isFromCache == false)
        #expect(requests == 2)
    }

    @Test func anAssumedLifetimeKeepsItFreshThatLong() async throws {
        // Given the same answer, and an endpoint that assumes 30 days
        let policy = CachePolicy.useProtocol.assumingLifetime(.seconds(30 * 86_400))
        // When it is asked for again 29 days later
        let (source, requests) = try await sourcesOfTwoRequests(
            headers: [:], policy: policy, after: 29 * 86_400)
        // Then the stored answer is used, fresh, without a request
        #expect(source.isFromCache && !source.isStale)
        #expect(requests == 1)
    }

    @Test func anAssumedLifetimeEnds() async throws {
        // Given an endpoint that assumes an hour
        let policy = CachePolicy.useProtocol.assumingLifetime(.seconds(3_600))
        // When the answer is asked for again two hours later
        let (source, requests) = try await sourcesOfTwoRequests(headers: [:], policy: policy, after: 7_200)
        // Then the server is asked again
        #expect(source.isFromCache == false)
        #expect(requests == 2)
    }

    @Test func theServersOwnWordsWinOverTheAssumedLifetime() async throws {
        // Given an endpoint that assumes 30 days, and answers that say no-cache, or max-age=0
        let policy = CachePolicy.useProtocol.assumingLifetime(.seconds(30 * 86_400))
        for headers in [["Cache-Control": "no-cache"], ["Cache-Control": "max-age=0"], ["Expires": "0"]] {
            // When they are asked for again a minute later
            let (source, _) = try await sourcesOfTwoRequests(headers: headers, policy: policy, after: 60)
            // Then the server is asked again
            #expect(source.isFromCache == false, "\(headers)")
        }
    }

    @Test func anyAssumedLifetimeIsAcceptedWithoutATrap() async throws {
        // Given lifetimes at the extremes
        for lifetime in [Duration.zero, .seconds(-5), .seconds(Int64.max), .seconds(Int64.max) + .seconds(1)]
        {
            let policy = CachePolicy.useProtocol.assumingLifetime(lifetime)
            // When an answer is used under them
            let (source, _) = try await sourcesOfTwoRequests(headers: [:], policy: policy, after: 1)
            // Then nothing traps; a lifetime of zero or less keeps nothing fresh
            #expect(source.isFromCache == (lifetime > .seconds(1)), "\(lifetime)")
        }
    }
}
