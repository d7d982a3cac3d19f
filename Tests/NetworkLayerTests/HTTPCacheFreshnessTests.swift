import Foundation
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// RFC 9111 freshness against the fixture server, on a clock the tests move: what is answered without a
/// request, and what is not stored at all.
@Suite("HTTP cache: freshness")
struct HTTPCacheFreshnessTests {
    @Test func aFreshAnswerIsServedWithoutARequest() async throws {
        // Given an answer fresh for 100 s
        let world = try await CacheWorld()
        let provider = world.provider()
        let first = try await provider.response(for: world.resource(["cc": "max-age=100"]))
        // When it is asked for again 50 s later
        world.date.advance(by: 50)
        let second = try await provider.response(for: world.resource(["cc": "max-age=100"]))
        // Then the server saw one request, and the second answer says it came from the cache
        #expect(try await world.log().count == 1)
        #expect(first.source.isFromCache == false)
        guard case .cache(let age, let isFresh) = second.source else {
            Issue.record("expected a cache hit, got \(second.source)")
            return
        }
        #expect(isFresh)
        #expect(age >= .seconds(50) && age < .seconds(53))
        #expect(second.value == first.value)
    }

    @Test func anAnswerPastItsMaxAgeGoesBackToTheServer() async throws {
        // Given an answer fresh for 100 s, with no validator
        let world = try await CacheWorld()
        let provider = world.provider()
        _ = try await provider.send(world.resource(["cc": "max-age=100"]))
        // When it is asked for 150 s later
        world.date.advance(by: 150)
        let second = try await provider.response(for: world.resource(["cc": "max-age=100"]))
        // Then the server answers again, in full
        #expect(try await world.log().count == 2)
        #expect(second.source.isFromCache == false)
    }

    @Test func expiresGivesTheLifetimeWhenThereIsNoMaxAge() async throws {
        // Given an answer whose Expires is an hour after its Date
        let world = try await CacheWorld()
        let provider = world.provider()
        let now = world.date.now
        let query = [
            "date": HTTPDates.format(now), "expires": HTTPDates.format(now.addingTimeInterval(3_600)),
        ]
        _ = try await provider.send(world.resource(query))
        // When it is asked for again after half an hour, and after two hours
        world.date.advance(by: 1_800)
        let soon = try await provider.response(for: world.resource(query))
        world.date.advance(by: 5_400)
        let late = try await provider.response(for: world.resource(query))
        // Then the first is a fresh hit, the second goes to the server
        #expect(soon.source.isFromCache && !soon.source.isStale)
        #expect(late.source.isFromCache == false)
    }

    @Test func aHeuristicLifetimeIsATenthOfTheTimeSinceLastModified() async throws {
        // Given an answer last modified ten days before its Date, with no max-age or Expires
        let world = try await CacheWorld()
        let provider = world.provider()
        let now = world.date.now
        let query = [
            "date": HTTPDates.format(now),
            "lastModified": HTTPDates.format(now.addingTimeInterval(-10 * 86_400)),
        ]
        _ = try await provider.send(world.resource(query))
        // When it is asked for after 20 hours (within a day, a tenth of ten days) and after 25 hours
        world.date.advance(by: 20 * 3_600)
        let within = try await provider.response(for: world.resource(query))
        world.date.advance(by: 5 * 3_600)
        let past = try await provider.response(for: world.resource(query))
        // Then the first is a fresh hit and the second is revalidated with If-Modified-Since
        #expect(within.source.isFromCache && !within.source.isStale)
        guard case .revalidated = past.source else {
            Issue.record("expected a revalidation, got \(past.source)")
            return
        }
        #expect(try await world.log().last?.ifModifiedSince == query["lastModified"])
    }

    @Test func anAgeHeaderCountsTowardsTheAnswersAge() async throws {
        // Given an answer fresh for 100 s that a proxy had already held for 90 s
        let world = try await CacheWorld()
        let provider = world.provider()
        _ = try await provider.send(world.resource(["cc": "max-age=100", "age": "90"]))
        // When it is asked for 20 s later
        world.date.advance(by: 20)
        let second = try await provider.response(for: world.resource(["cc": "max-age=100", "age": "90"]))
        // Then it is past its lifetime and the server is asked
        #expect(second.source.isFromCache == false)
        #expect(try await world.log().count == 2)
    }

    @Test func noStoreAnswersAreNeverStored() async throws {
        // Given an answer marked no-store
        let world = try await CacheWorld()
        let provider = world.provider()
        _ = try await provider.send(world.resource(["cc": "no-store, max-age=100"]))
        // When it is asked for again
        _ = try await provider.send(world.resource(["cc": "no-store, max-age=100"]))
        // Then both went to the server and nothing is stored
        #expect(try await world.log().count == 2)
        #expect(world.store.count == 0)
    }

    @Test func noCacheAnswersAreRevalidatedOnEveryUse() async throws {
        // Given an answer marked no-cache with an ETag, fresh by max-age
        let world = try await CacheWorld()
        let provider = world.provider()
        let query = ["cc": "no-cache, max-age=100", "etag": "version"]
        _ = try await provider.send(world.resource(query))
        // When it is asked for again at once
        let second = try await provider.response(for: world.resource(query))
        // Then the server was asked with the ETag, and confirmed it
        guard case .revalidated = second.source else {
            Issue.record("expected a revalidation, got \(second.source)")
            return
        }
        #expect(try await world.log().last?.ifNoneMatch == "\"v1\"")
    }

    @Test func privateAnswersAreStoredInThisPrivateCache() async throws {
        // Given an answer marked private, fresh for 100 s
        let world = try await CacheWorld()
        let provider = world.provider()
        _ = try await provider.send(world.resource(["cc": "private, max-age=100"]))
        // When it is asked for again
        let second = try await provider.response(for: world.resource(["cc": "private, max-age=100"]))
        // Then it comes from the cache
        #expect(second.source.isFromCache)
        #expect(try await world.log().count == 1)
    }

    @Test func aRequestsOwnNoCacheRevalidatesAFreshAnswer() async throws {
        // Given a fresh stored answer with an ETag
        let world = try await CacheWorld()
        let provider = world.provider()
        _ = try await provider.send(world.resource(["cc": "max-age=100", "etag": "version"]))
        // When the endpoint itself sends Cache-Control: no-cache
        var endpoint = world.resource(["cc": "max-age=100", "etag": "version"])
        endpoint.headers["Cache-Control"] = "no-cache"
        let second = try await provider.response(for: endpoint)
        // Then the server is asked, conditionally
        guard case .revalidated = second.source else {
            Issue.record("expected a revalidation, got \(second.source)")
            return
        }
    }

    @Test func anAnswerTheEndpointRefusesIsNotStored() async throws {
        // Given a resource that answers 404 with max-age
        let world = try await CacheWorld()
        let provider = world.provider()
        let missing: Endpoint<CachedResource> = EndpointGroup(baseURL: world.server.baseURL).get("status/404")
        // When it is asked for
        _ = await error { try await provider.send(missing) }
        // Then nothing is stored: only answers the endpoint accepts are
        #expect(world.store.count == 0)
    }

    @Test func aRequestsOwnMaxStaleAcceptsAStaleAnswerWithinIt() async throws {
        // Given an answer fresh for 100 s, now 60 s stale
        let world = try await CacheWorld()
        let provider = world.provider()
        _ = try await provider.send(world.resource(["cc": "max-age=100"]))
        world.date.advance(by: 160)
        // When the endpoint accepts an hour of staleness, then only ten seconds
        var lenient = world.resource(["cc": "max-age=100"])
        lenient.headers["Cache-Control"] = "max-stale=3600"
        let accepted = try await provider.response(for: lenient)
        var strict = lenient
        strict.headers["Cache-Control"] = "max-stale=10"
        let refused = try await provider.response(for: strict)
        // Then the first is the stale stored answer, the second the server's
        #expect(accepted.source.isFromCache && accepted.source.isStale)
        #expect(refused.source.isFromCache == false)
    }
}
