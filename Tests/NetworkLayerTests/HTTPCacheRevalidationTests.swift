import Foundation
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Validators, `304`s, `Vary`, and unsafe methods, against the fixture server.
@Suite("HTTP cache: revalidation")
struct HTTPCacheRevalidationTests {
    @Test func aStaleAnswerWithAnETagIsRevalidatedWithIfNoneMatch() async throws {
        // Given a stored answer with an ETag and max-age=0
        let world = try await CacheWorld()
        let provider = world.provider()
        let query = ["cc": "max-age=0", "etag": "version"]
        let first = try await provider.response(for: world.resource(query))
        // When it is asked for again
        let second = try await provider.response(for: world.resource(query))
        // Then the server got If-None-Match and answered 304; the caller sees the stored 200 and body
        #expect(try await world.log().map(\.ifNoneMatch) == ["", "\"v1\""])
        guard case .revalidated = second.source else {
            Issue.record("expected a revalidation, got \(second.source)")
            return
        }
        #expect(second.statusCode == 200)
        #expect(second.value == first.value)
        #expect(world.cache.statistics.conditionalHitCount == 1)
    }

    @Test func aChangedResourceReplacesTheStoredAnswer() async throws {
        // Given a stored answer with an ETag and max-age=0
        let world = try await CacheWorld()
        let provider = world.provider()
        let query = ["cc": "max-age=0", "etag": "version"]
        _ = try await provider.send(world.resource(query))
        // When the resource changes and it is asked for twice
        try await world.change(version: 2)
        let changed = try await provider.response(for: world.resource(query))
        let again = try await provider.response(for: world.resource(query))
        // Then the new version arrives in full, then is revalidated with its own ETag
        #expect(changed.value.version == 2)
        #expect(changed.source.isFromCache == false)
        #expect(again.value.version == 2)
        #expect(try await world.log().map(\.ifNoneMatch) == ["", "\"v1\"", "\"v2\""])
    }

    @Test func lastModifiedAloneIsRevalidatedWithIfModifiedSince() async throws {
        // Given a stored answer with only a Last-Modified and max-age=0
        let world = try await CacheWorld()
        let provider = world.provider()
        let modified = "Wed, 21 Oct 2026 07:28:00 GMT"
        let query = ["cc": "max-age=0", "lastModified": modified]
        _ = try await provider.send(world.resource(query))
        // When it is asked for again
        let second = try await provider.response(for: world.resource(query))
        // Then the server got If-Modified-Since and answered 304
        #expect(try await world.log().last?.ifModifiedSince == modified)
        guard case .revalidated = second.source else {
            Issue.record("expected a revalidation, got \(second.source)")
            return
        }
    }

    @Test func aNotModifiedAnswerUpdatesTheStoredHeaders() async throws {
        // Given a stored answer revalidated by a 304 that makes it fresh for 100 s
        let world = try await CacheWorld()
        let provider = world.provider()
        let fresher = [
            "cc": "max-age=0", "etag": "version", "notModifiedHeaders": #"{"Cache-Control":"max-age=100"}"#,
        ]
        _ = try await provider.send(world.resource(fresher))
        _ = try await provider.send(world.resource(fresher))
        // When it is asked for again 50 s later
        world.date.advance(by: 50)
        let third = try await provider.response(for: world.resource(fresher))
        // Then the stored headers are the 304's: a fresh hit, no third request
        #expect(third.source.isFromCache && !third.source.isStale)
        #expect(try await world.log().count == 2)
    }

    @Test func aVaryingAnswerIsUsedOnlyForTheSameHeaderValues() async throws {
        // Given an answer that varies on Accept-Language, stored for "ko"
        let world = try await CacheWorld()
        let provider = world.provider()
        var korean = world.resource(["cc": "max-age=100", "vary": "Accept-Language"])
        korean.headers["Accept-Language"] = "ko"
        _ = try await provider.send(korean)
        // When the same URL is asked for in English, then in Korean again
        var english = korean
        english.headers["Accept-Language"] = "en"
        let inEnglish = try await provider.response(for: english)
        let inKorean = try await provider.response(for: korean)
        // Then English goes to the server; Korean (stored again after English replaced it) too, once
        #expect(inEnglish.source.isFromCache == false)
        #expect(inEnglish.value.lang == "en")
        #expect(inKorean.value.lang == "ko")
        #expect(try await world.log().count == 3)
        let againInKorean = try await provider.response(for: korean)
        #expect(againInKorean.source.isFromCache)
    }

    @Test func aSuccessfulPOSTInvalidatesTheStoredGET() async throws {
        // Given a fresh stored answer
        let world = try await CacheWorld()
        let provider = world.provider()
        _ = try await provider.send(world.resource(["cc": "max-age=100"]))
        // When a POST to the same URL succeeds
        var post = world.resource(["cc": "max-age=100"])
        post.method = .post
        post.decode = { _, _ in CachedResource(id: "", version: 0, lang: "") }
        _ = try? await provider.send(post)
        // Then the next GET goes to the server
        let after = try await provider.response(for: world.resource(["cc": "max-age=100"]))
        #expect(after.source.isFromCache == false)
    }

    @Test func aNotModifiedNamingAnotherETagIsNotTrusted() async throws {
        // Given a stored answer whose revalidation 304 names a different ETag
        let world = try await CacheWorld()
        let provider = world.provider()
        let liar = ["cc": "max-age=0", "etag": "version", "notModifiedHeaders": #"{"ETag":"\"other\""}"#]
        _ = try await provider.send(world.resource(liar))
        // When it is asked for again
        let second = try await provider.response(for: world.resource(liar))
        // Then the cache asks again without validators and gets the whole answer
        #expect(second.source.isFromCache == false)
        #expect(try await world.log().map(\.ifNoneMatch) == ["", "\"v1\"", ""])
    }

    @Test func aNotModifiedCannotChangeTheStoredBodysLengthOrType() async throws {
        // Given a stored answer whose 304 claims another Content-Length and Content-Type
        let world = try await CacheWorld()
        let provider = world.provider()
        let hostile = [
            "cc": "max-age=0", "etag": "version",
            "notModifiedHeaders": #"{"Content-Length":"999999","Content-Type":"text/html"}"#,
        ]
        let first = try await provider.response(for: world.resource(hostile))
        // When it is revalidated
        let second = try await provider.response(for: world.resource(hostile))
        // Then the stored body's length and type stand
        guard case .revalidated = second.source else {
            Issue.record("expected a revalidation, got \(second.source)")
            return
        }
        #expect(second.value == first.value)
        #expect(second.httpResponse.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(second.httpResponse.value(forHTTPHeaderField: "Content-Length") == "\(first.data.count)")
    }

    @Test func aNotModifiedForARequestWithoutValidatorsIsTheCallersError() async throws {
        // Given a server that answers 304 to everything, and nothing stored
        let world = try await CacheWorld()
        let provider = world.provider()
        // When the resource is asked for
        let failure = await error { try await provider.send(world.resource(["always304": "1"])) }
        // Then the 304 is reported as the unacceptable status it is, and nothing is stored
        let status = try #require(
            (failure as? NetworkError)?.statusFailure,
            "expected an unacceptable status, got \(String(describing: failure))")
        #expect(status.statusCode == 304)
        #expect(world.store.count == 0)
    }

    @Test func aCallersOwnValidatorsBypassTheCache() async throws {
        // Given a fresh stored answer
        let world = try await CacheWorld()
        let provider = world.provider()
        _ = try await provider.send(world.resource(["cc": "max-age=100", "etag": "version"]))
        // When the caller sends its own If-None-Match and accepts a 304
        var endpoint = world.resource(["cc": "max-age=100", "etag": "version"])
        endpoint.headers["If-None-Match"] = "\"v1\""
        endpoint.acceptableStatusCodes = [200, 304]
        endpoint.decode = { _, _ in CachedResource(id: "", version: 0, lang: "") }
        let answer = try await provider.response(for: endpoint)
        // Then the server's 304 reaches the caller as it is
        #expect(answer.statusCode == 304)
        #expect(answer.source.isFromCache == false)
    }
}
