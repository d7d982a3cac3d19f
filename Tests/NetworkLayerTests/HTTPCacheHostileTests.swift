import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A server is hostile: what it sends cannot make the cache trap, grow past its limits or serve what it
/// should not.
@Suite("HTTP cache: hostile answers")
struct HTTPCacheHostileTests {
    @Test func thousandsOfVaryNamesAreNotStored() async throws {
        // Given an answer that varies on 2,000 header names
        let world = try await CacheWorld()
        let provider = world.provider()
        let names = (0..<2_000).map { "X-H\($0)" }.joined(separator: ",")
        // When it is fetched
        let answer = try await provider.response(for: world.resource(["cc": "max-age=100", "vary": names]))
        // Then the caller has it, and nothing is stored
        #expect(answer.statusCode == 200)
        #expect(world.store.count == 0)
    }

    @Test func varyStarIsNeverStored() async throws {
        // Given an answer with Vary: *
        let world = try await CacheWorld()
        let provider = world.provider()
        // When it is fetched
        _ = try await provider.send(world.resource(["cc": "max-age=100", "vary": "*"]))
        // Then nothing is stored
        #expect(world.store.count == 0)
    }

    @Test func aHugeETagIsStoredButNeverSentBack() async throws {
        // Given an answer with a 10 KB ETag and max-age=0
        let world = try await CacheWorld()
        let provider = world.provider()
        let query = ["cc": "max-age=0", "etag": "\"" + String(repeating: "e", count: 10_000) + "\""]
        _ = try await provider.send(world.resource(query))
        // When it is asked for again
        let second = try await provider.response(for: world.resource(query))
        // Then the validator was not sent back: a whole new answer came
        #expect(second.source.isFromCache == false)
        #expect(try await world.log().map(\.ifNoneMatch) == ["", ""])
    }

    @Test func anEnormousMaxAgeIsCappedAndDoesNotTrap() async throws {
        // Given an answer with max-age=99999999999
        let world = try await CacheWorld()
        let provider = world.provider()
        _ = try await provider.send(world.resource(["cc": "max-age=99999999999"]))
        // When it is asked for 60 years later (2^31 seconds is 68 years)
        world.date.advance(by: 60 * 365 * 86_400)
        let later = try await provider.response(for: world.resource(["cc": "max-age=99999999999"]))
        // Then it is still fresh, and nothing trapped
        #expect(later.source.isFromCache)
        // And past 2^31 seconds, it is stale
        world.date.advance(by: 10 * 365 * 86_400)
        let muchLater = try await provider.response(for: world.resource(["cc": "max-age=99999999999"]))
        #expect(muchLater.source.isFromCache == false)
    }

    @Test(arguments: [
        ["age": "-5"], ["age": "abc"], ["age": "99999999999999999999999"], ["date": "yesterday"],
        ["date": "Sun, 06 Nov 1994 08:49:37 GMT"], ["expires": "0"], ["expires": "-1"],
        ["expires": "Fri, 31 Dec 9999 23:59:59 GMT"], ["lastModified": "garbage"],
    ])
    func garbageDatesAndAgesFallBackWithoutTrapping(_ fields: [String: String]) async throws {
        // Given an answer with a garbage Age, Date, Expires or Last-Modified
        let world = try await CacheWorld()
        let provider = world.provider()
        // When it is fetched twice
        _ = try await provider.send(world.resource(fields))
        let second = try await provider.response(for: world.resource(fields))
        // Then both succeed, and the second's source is whatever the fallbacks say, with a sane age
        #expect(second.statusCode == 200)
        if let age = second.source.age { #expect(age >= .zero && age <= .seconds(2_147_483_648)) }
    }

    @Test func anAnswerLargerThanTheStoresLimitIsNotStored() async throws {
        // Given a store of 100 bytes and a larger answer
        let world = try await CacheWorld(store: MemoryHTTPCacheStore(byteLimit: 100))
        let provider = world.provider()
        // When it is fetched
        _ = try await provider.send(
            world.resource(["cc": "max-age=100", "etag": String(repeating: "x", count: 200)]))
        // Then nothing is stored, and the store holds nothing
        #expect(world.store.count == 0)
        #expect(world.store.byteCount == 0)
    }
}
