import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a `304` may confirm and what may be kept after it (RFC 9111 sections 3.2 and 4.3.4), in the
/// foreground and in a `stale-while-revalidate` refresh, against a scripted origin.
@Suite("HTTP cache: what a 304 confirms")
struct HTTPCacheConfirmationTests {
    static let v1: ScriptedOrigin.Answer = .init(headers: ["Cache-Control": "max-age=0", "ETag": "\"v1\""])

    @Test func aNotModifiedThatAddsNoStoreIsUsedOnceAndNotKept() async throws {
        // Given a stored answer that must be revalidated
        let origin = ScriptedOrigin()
        origin.answer(Self.v1, .init(status: 304, headers: ["ETag": "\"v1\"", "Cache-Control": "no-store"]))
        let provider = origin.provider()
        _ = try await provider.send(origin.film())
        // When the server confirms it with a 304 that says no-store
        let confirmed = try await provider.response(for: origin.film())
        // Then the caller gets the confirmed answer, and nothing is kept
        #expect(confirmed.source.description == "revalidated (304)")
        #expect(origin.keptAnswers == 0)
    }

    @Test func aBackgroundNotModifiedThatAddsNoStoreRemovesTheAnswer() async throws {
        // Given a stored answer within its stale-while-revalidate window
        let origin = ScriptedOrigin()
        origin.answer(
            .init(headers: ["Cache-Control": "max-age=1, stale-while-revalidate=600", "ETag": "\"v1\""]),
            .init(status: 304, headers: ["ETag": "\"v1\"", "Cache-Control": "no-store"]))
        let provider = origin.provider()
        _ = try await provider.send(origin.film())
        origin.date.advance(by: 10)
        // When it is served stale and the background revalidation gets a 304 with no-store
        let stale = try await provider.response(for: origin.film())
        // (a background task: under ThreadSanitizer on a loaded machine it took more than 10 seconds once)
        #expect(
            await eventually(within: .seconds(60)) {
                origin.cache.refreshingCount == 0 && origin.requests.count == 2
            })
        // Then the answer is no longer kept
        #expect(stale.source.isStale)
        #expect(origin.keptAnswers == 0)
    }

    @Test func aBackgroundAnswerWithNoStoreRemovesTheOldAnswer() async throws {
        // Given a stored answer within its stale-while-revalidate window
        let origin = ScriptedOrigin()
        origin.answer(
            .init(headers: ["Cache-Control": "max-age=1, stale-while-revalidate=600", "ETag": "\"v1\""]),
            .init(headers: ["Cache-Control": "no-store"]))
        let provider = origin.provider()
        _ = try await provider.send(origin.film())
        origin.date.advance(by: 10)
        // When the background revalidation is answered 200 with no-store
        _ = try await provider.response(for: origin.film())
        #expect(await eventually { origin.cache.refreshingCount == 0 && origin.requests.count == 2 })
        // Then the old answer is gone, as it would be in the foreground
        #expect(origin.keptAnswers == 0)
    }

    @Test func aNotModifiedWithAnotherLastModifiedIsNotTrusted() async throws {
        // Given a stored answer validated by its Last-Modified alone
        let origin = ScriptedOrigin()
        let modified = "Wed, 21 Oct 2026 07:28:00 GMT"
        origin.answer(
            .init(headers: ["Cache-Control": "max-age=0", "Last-Modified": modified]),
            .init(status: 304, headers: ["Last-Modified": "Thu, 22 Oct 2026 07:28:00 GMT"]),
            .init(headers: ["Cache-Control": "max-age=0"], body: #"{"version":2}"#))
        let provider = origin.provider()
        _ = try await provider.send(origin.film())
        // When a 304 names another Last-Modified
        let answer = try await provider.response(for: origin.film())
        // Then it is not taken as a confirmation: the whole answer is asked for again
        #expect(answer.source.description == "network")
        #expect(String(decoding: answer.value, as: UTF8.self) == #"{"version":2}"#)
        #expect(origin.requests.count == 3)
        #expect(origin.requests.dropFirst(2).first?.value(forHTTPHeaderField: "If-Modified-Since") == nil)
    }

    @Test func aLateNotModifiedDoesNotReplaceANewerAnswer() async throws {
        // Given a stored v1, and a revalidation of it held at the origin
        let origin = ScriptedOrigin()
        let held = AsyncGate()
        origin.answer(
            Self.v1,
            .init(status: 304, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=600"], gate: held),
            .init(headers: ["Cache-Control": "max-age=600", "ETag": "\"v2\""], body: "v2"))
        let provider = origin.provider()
        _ = try await provider.send(origin.film())
        let late = Task { try await provider.response(for: origin.film()) }
        await held.waitUntilEntered()
        // When v2 is stored meanwhile, then the late 304 for v1 arrives
        origin.date.advance(by: 1)
        _ = try await provider.send(origin.film(policy: .reload))
        held.open()
        _ = try await late.value
        // Then v2 stays stored
        let kept = try #require(origin.store.kept.withLock { $0.values.first })
        #expect(kept.body == Data("v2".utf8))
    }

    @Test func aLateBackgroundRefreshDoesNotReplaceANewerAnswer() async throws {
        // Given a stale v1 revalidated in the background, its answer held at the origin
        let origin = ScriptedOrigin()
        let held = AsyncGate()
        origin.answer(
            .init(headers: ["Cache-Control": "max-age=1, stale-while-revalidate=600", "ETag": "\"v1\""]),
            .init(status: 304, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=600"], gate: held),
            .init(headers: ["Cache-Control": "max-age=600", "ETag": "\"v2\""], body: "v2"))
        let provider = origin.provider()
        _ = try await provider.send(origin.film())
        origin.date.advance(by: 10)
        _ = try await provider.send(origin.film())
        await held.waitUntilEntered()
        // When v2 is stored meanwhile, then the background 304 for v1 arrives
        _ = try await provider.send(origin.film(policy: .reload))
        held.open()
        #expect(await eventually { origin.cache.refreshingCount == 0 })
        // Then v2 stays stored
        let kept = try #require(origin.store.kept.withLock { $0.values.first })
        #expect(kept.body == Data("v2".utf8))
    }

    @Test func anAnswerWhoseETagEchoesADeclaredKeyIsNotKept() async throws {
        // Given a key declared as a credential, and a server that echoes it as the ETag
        let key = "KEY-\(UUID().uuidString)"
        Credentials.declare(value: key)
        let origin = ScriptedOrigin()
        origin.answer(.init(headers: ["Cache-Control": "max-age=600", "ETag": "\"\(key)\""]))
        // When the answer arrives
        let answer = try await origin.provider().response(for: origin.film())
        // Then the caller has it, and no stored byte holds the key
        #expect(answer.source.description == "network")
        #expect(origin.keptAnswers == 0)
        #expect(!origin.store.everything.contains(key))
    }

    @Test func aNotModifiedWhoseFieldEchoesADeclaredKeyIsNotKept() async throws {
        // Given a stored answer, and a 304 whose Content-Location carries a declared key
        let key = "KEY-\(UUID().uuidString)"
        Credentials.declare(value: key)
        let origin = ScriptedOrigin()
        origin.answer(
            Self.v1,
            .init(status: 304, headers: ["ETag": "\"v1\"", "Content-Location": "/films/1?k=\(key)"]))
        let provider = origin.provider()
        _ = try await provider.send(origin.film())
        // When it is revalidated
        _ = try await provider.send(origin.film())
        // Then nothing holding the key is kept
        #expect(!origin.store.everything.contains(key))
        #expect(origin.keptAnswers == 0)
    }

    @Test func anAnswerARedirectLedToIsNotKeptUnderTheFirstURL() async throws {
        // Given a session that followed a redirect to another URL
        let origin = ScriptedOrigin()
        origin.answer(
            .init(
                headers: ["Cache-Control": "max-age=600"], body: "other",
                url: URL(string: "https://api.example.com/films/2")!))
        // When the answer arrives
        _ = try await origin.provider().send(origin.film())
        // Then it is not kept as the first URL's answer
        #expect(origin.keptAnswers == 0)
    }

    @Test func aNewVersionTooLargeToKeepRemovesTheOldOne() async throws {
        // Given a store of 2,000 bytes holding a small answer
        let store = MemoryHTTPCacheStore(byteLimit: 2_000)
        let date = ManualClock(Date())
        var configuration = NetworkProvider.Configuration()
        configuration.httpCache = HTTPCache(store: store, now: { date.now })
        let body = Locked("small")
        let provider = NetworkProvider(
            session: StubSession { request in
                let http = HTTPURLResponse(
                    url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1",
                    headerFields: ["Cache-Control": "max-age=600"])!
                return (Data(body.withLock { $0 }.utf8), http)
            }, configuration: configuration)
        var film = Endpoint<Data>(url: URL(string: "https://api.example.com/films/1")!)
        _ = try await provider.send(film)
        // When a new version too large for the store arrives
        body.withLock { $0 = String(repeating: "x", count: 5_000) }
        film.cachePolicy = .reload
        _ = try await provider.send(film)
        // Then the old version is not served any more
        film.cachePolicy = .onlyIfCached
        await #expect(throws: NetworkError.self) { try await provider.send(film) }
    }

    @Test func aHitReadsTheHeadersOfTheVersionStoredNow() async throws {
        // Given an answer hit while fresh, then stale and confirmed by a 304 that changes a header
        let origin = ScriptedOrigin()
        origin.answer(
            .init(headers: ["Cache-Control": "max-age=1", "ETag": "\"v1\"", "X-Edition": "first"]),
            .init(
                status: 304,
                headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=600", "X-Edition": "second"]))
        let provider = origin.provider()
        _ = try await provider.send(origin.film())
        let early = try await provider.response(for: origin.film())
        origin.date.advance(by: 10)
        _ = try await provider.send(origin.film())
        // When it is hit again, fresh, at two URLs that share its key (fragments differ)
        var endpoint = origin.film()
        endpoint.baseURL = URL(string: "https://api.example.com/films/1#a")!
        let first = try await provider.response(for: endpoint)
        endpoint.baseURL = URL(string: "https://api.example.com/films/1#b")!
        let second = try await provider.response(for: endpoint)
        // Then each reads the confirmed version's header, at its own URL
        #expect(early.httpResponse.value(forHTTPHeaderField: "X-Edition") == "first")
        #expect(first.source.isFromCache && second.source.isFromCache)
        #expect(first.httpResponse.value(forHTTPHeaderField: "X-Edition") == "second")
        #expect(first.httpResponse.url?.fragment == "a")
        #expect(second.httpResponse.url?.fragment == "b")
    }
}
