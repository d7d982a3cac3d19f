import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Per-request policies, `stale-while-revalidate`, and cache-then-network.
@Suite("HTTP cache: policies")
struct HTTPCachePolicyTests {
    @Test func reloadAsksTheServerWithoutValidatorsAndStoresTheAnswer() async throws {
        // Given a fresh stored answer with an ETag
        let world = try await CacheWorld()
        let provider = world.provider()
        let query = ["cc": "max-age=100", "etag": "version"]
        _ = try await provider.send(world.resource(query))
        try await world.change(version: 2)
        // When it is asked for with .reload, then as usual
        let reloaded = try await provider.response(for: world.resource(query, policy: .reload))
        let after = try await provider.response(for: world.resource(query))
        // Then the reload got the new version without validators, and stored it
        #expect(reloaded.value.version == 2 && !reloaded.source.isFromCache)
        #expect(try await world.log().map(\.ifNoneMatch) == ["", ""])
        #expect(after.value.version == 2 && after.source.isFromCache)
    }

    @Test func revalidateAsksTheServerEvenForAFreshAnswer() async throws {
        // Given a fresh stored answer with an ETag
        let world = try await CacheWorld()
        let provider = world.provider()
        let query = ["cc": "max-age=100", "etag": "version"]
        _ = try await provider.send(world.resource(query))
        // When it is asked for with .revalidate
        let answer = try await provider.response(for: world.resource(query, policy: .revalidate))
        // Then the server confirmed it
        guard case .revalidated = answer.source else {
            Issue.record("expected a revalidation, got \(answer.source)")
            return
        }
    }

    @Test func returnCacheElseLoadUsesAStaleAnswerWithoutARequest() async throws {
        // Given a stored answer a day stale
        let world = try await CacheWorld()
        let provider = world.provider()
        _ = try await provider.send(world.resource(["cc": "max-age=60"]))
        world.date.advance(by: 86_400)
        // When it is asked for with .returnCacheElseLoad
        let answer = try await provider.response(
            for: world.resource(["cc": "max-age=60"], policy: .returnCacheElseLoad))
        // Then it comes from the store, marked stale
        #expect(answer.source.isFromCache && answer.source.isStale)
        #expect(try await world.log().count == 1)
    }

    @Test func returnCacheElseLoadLoadsWhenNothingIsStored() async throws {
        // Given nothing stored
        let world = try await CacheWorld()
        let provider = world.provider()
        // When the resource is asked for with .returnCacheElseLoad
        let answer = try await provider.response(for: world.resource(policy: .returnCacheElseLoad))
        // Then the server answers
        #expect(answer.source.isFromCache == false)
    }

    @Test func onlyIfCachedNeverTouchesTheNetwork() async throws {
        // Given nothing stored
        let world = try await CacheWorld()
        let provider = world.provider()
        // When the resource is asked for with .onlyIfCached
        let failure = await error { try await provider.send(world.resource(policy: .onlyIfCached)) }
        // Then it fails with notCached and the server saw nothing
        try #require(
            (failure as? NetworkError)?.isNotCached == true,
            "expected notCached, got \(String(describing: failure))")
        #expect(try await world.log().isEmpty)
    }

    @Test func onlyIfCachedAnswersWithAStoredAnswerOfAnyAge() async throws {
        // Given a stored answer a day stale
        let world = try await CacheWorld()
        let provider = world.provider()
        _ = try await provider.send(world.resource(["cc": "max-age=60"]))
        world.date.advance(by: 86_400)
        // When it is asked for with .onlyIfCached
        let answer = try await provider.response(
            for: world.resource(["cc": "max-age=60"], policy: .onlyIfCached))
        // Then it comes from the store
        #expect(answer.source.isStale)
        #expect(try await world.log().count == 1)
    }

    @Test func staleWhileRevalidateAnswersAtOnceAndRefreshesInTheBackground() async throws {
        // Given an answer fresh for 60 s that may be served stale for 600 s while it is revalidated
        let world = try await CacheWorld()
        let provider = world.provider()
        // The server's Date is the time the test moves to, so the refreshed answer is zero seconds old.
        let later = HTTPDates.format(world.date.now.addingTimeInterval(120))
        let query = ["cc": "max-age=60, stale-while-revalidate=600", "etag": "version", "date": later]
        _ = try await provider.send(world.resource(query))
        try await world.change(version: 2)
        world.date.advance(by: 120)
        // When it is asked for, stale
        let stale = try await provider.response(for: world.resource(query))
        // Then the stored version comes at once, and the background revalidation stores version 2
        #expect(stale.value.version == 1 && stale.source.isStale)
        #expect(
            await eventually { world.cache.refreshingCount == 0 && world.cache.statistics.networkCount == 2 })
        let refreshed = try await provider.response(for: world.resource(query))
        #expect(refreshed.value.version == 2 && refreshed.source.isFromCache && !refreshed.source.isStale)
    }

    @Test func cacheThenNetworkYieldsTheStoredAnswerThenTheServers() async throws {
        // Given a stored answer, and a resource that has changed since
        let world = try await CacheWorld()
        let provider = world.provider()
        let query = ["cc": "max-age=100", "etag": "version"]
        _ = try await provider.send(world.resource(query))
        try await world.change(version: 2)
        // When a view model reads cache, then network
        var versions: [(Int, Bool)] = []
        for try await answer in provider.responses(for: world.resource(query)) {
            versions.append((answer.value.version, answer.source.isFromCache))
        }
        // Then it sees the stored version at once, then the new one from the network
        #expect(versions.map(\.0) == [1, 2])
        #expect(versions.map(\.1) == [true, false])
    }

    @Test func cacheThenNetworkThrowsTheNetworksFailureAfterTheStoredAnswer() async throws {
        // Given a stored answer, and a device that goes offline
        let world = try await CacheWorld()
        let network = OfflineSwitch()
        let provider = world.provider(session: network)
        let policy = CachePolicy.useProtocol.acceptingStaleOnError(upTo: .seconds(86_400))
        _ = try await provider.send(world.resource(policy: policy))
        network.goOffline()
        // When a view model reads cache, then network
        var received: [ResponseSource] = []
        let failure = await error {
            for try await answer in provider.responses(for: world.resource(policy: policy)) {
                received.append(answer.source)
            }
        }
        // Then it gets the stored answer, then the offline error
        #expect(received.count == 1 && received.first?.isFromCache == true)
        #expect((failure as? NetworkError)?.isOffline == true)
    }

    @Test func cacheThenNetworkWithNothingStoredYieldsTheNetworksAnswerAlone() async throws {
        // Given nothing stored
        let world = try await CacheWorld()
        let provider = world.provider()
        // When a view model reads cache, then network
        var sources: [ResponseSource] = []
        for try await answer in provider.responses(for: world.resource()) { sources.append(answer.source) }
        // Then one answer, from the network
        #expect(sources.count == 1 && sources.first?.isFromCache == false)
    }

    @Test func cancellingTheCacheThenNetworkTaskCancelsTheRequest() async throws {
        // Given a resource the server holds open until the client leaves
        let world = try await CacheWorld()
        let provider = world.provider()
        let id = UUID().uuidString
        let held: Endpoint<Movie> = EndpointGroup(baseURL: world.server.baseURL).get(
            "trickle", query: ["stallAfter": "0", "id": id])
        let task = Task {
            for try await _ in provider.responses(for: held) {}
        }
        #expect(await eventually { closedState(of: id, on: world.server) == 0 })
        // When the reading task is cancelled
        task.cancel()
        // Then the request is cancelled: the server sees the client leave
        #expect(await eventually { closedState(of: id, on: world.server) == 1 })
        _ = await error { try await task.value }
    }
}

/// What the fixture server's `/closed` says of `id`: -1 before the request starts, 0 while it is open,
/// 1 once the client left.
private func closedState(of id: String, on server: TestServer) -> Int? {
    struct Closed: Decodable { let closed: Int }
    let url = URL(string: "\(server.baseURL.absoluteString)/closed?id=\(id)")!
    guard let data = try? Data(contentsOf: url) else { return nil }
    return try? JSONDecoder().decode(Closed.self, from: data).closed
}

/// What the review of the first cut found: each a behaviour the docs promise.
@Suite("HTTP cache: edges")
struct HTTPCacheEdgeTests {
    @Test func cacheThenNetworkThrowsOfflineEvenWhenTheServerAllowsStaleIfError() async throws {
        // Given a stored answer whose server allows a day of stale-if-error, and a device that goes offline
        let world = try await CacheWorld()
        let network = OfflineSwitch()
        let provider = world.provider(session: network)
        let query = ["cc": "max-age=60, stale-if-error=86400"]
        _ = try await provider.send(world.resource(query))
        world.date.advance(by: 120)
        network.goOffline()
        // When a view model reads cache, then network
        var received: [ResponseSource] = []
        let failure = await error {
            for try await answer in provider.responses(for: world.resource(query)) {
                received.append(answer.source)
            }
        }
        // Then the stored answer once, then the offline error: not the same answer a second time
        #expect(received.count == 1)
        #expect((failure as? NetworkError)?.isOffline == true)
    }

    @Test func aStaleWhileRevalidateHitReportsNoAttemptOfItsOwn() async throws {
        // Given an answer servable stale while it is revalidated, and a recorder of events
        let world = try await CacheWorld()
        let events = Recorder<String>()
        var configuration = NetworkProvider.Configuration()
        configuration.httpCache = world.cache
        configuration.onEvent = { event in
            switch event {
            case .started: events.append("started")
            case .retried: events.append("retried")
            case .finished: events.append("finished")
            case .failed: events.append("failed")
            @unknown default: events.append("other")
            }
        }
        let provider = NetworkProvider(
            session: URLSession(configuration: .ephemeral), configuration: configuration)
        let later = HTTPDates.format(world.date.now.addingTimeInterval(120))
        let query = ["cc": "max-age=60, stale-while-revalidate=600", "etag": "version", "date": later]
        _ = try await provider.send(world.resource(query))
        world.date.advance(by: 120)
        let before = events.values.count
        // When it is served stale and revalidated in the background
        let stale = try await provider.response(for: world.resource(query))
        #expect(
            await eventually { world.cache.refreshingCount == 0 && world.cache.statistics.networkCount == 2 })
        // Then the request reported no attempt, and finished once: the revalidation is not its attempt
        #expect(stale.metrics.isEmpty)
        #expect(Array(events.values.dropFirst(before)) == ["finished"], "\(events.values)")
    }

    @Test func aStoredAnswerTheEndpointNoLongerReadsIsReplaced() async throws {
        // Given a fresh stored answer of version 1, and an app update that reads version 2 and later only
        let world = try await CacheWorld()
        let provider = world.provider()
        _ = try await provider.send(world.resource(["cc": "max-age=100"]))
        try await world.change(version: 2)
        var updated = world.resource(["cc": "max-age=100"])
        updated.validate = { data, _ in
            if (try? JSONDecoder().decode(CachedResource.self, from: data))?.version == 1 {
                throw URLError(.cannotDecodeContentData)
            }
        }
        // When the updated app asks
        let answer = try await provider.response(for: updated)
        // Then the stored answer it refuses is dropped and the server asked again
        #expect(answer.value.version == 2)
        #expect(answer.source.isFromCache == false)
        #expect(try await world.log().count == 2)
    }

    @Test(arguments: [HTTPMethod.put, .patch, .delete])
    func aSuccessfulUnsafeMethodInvalidatesTheStoredGET(_ method: HTTPMethod) async throws {
        // Given a fresh stored answer
        let world = try await CacheWorld()
        let provider = world.provider()
        _ = try await provider.send(world.resource(["cc": "max-age=100"]))
        // When the method succeeds on the same URL
        var unsafe = world.resource(["cc": "max-age=100"])
        unsafe.method = method
        unsafe.decode = { _, _ in CachedResource(id: "", version: 0, lang: "") }
        unsafe.acceptableStatusCodes = 200...599
        _ = try? await provider.send(unsafe)
        // Then the stored answer is gone: only the note of the invalidation is kept
        #expect(world.store.count == 1)
        #expect(
            try await provider.response(for: world.resource(["cc": "max-age=100"])).source.isFromCache
                == false)
    }

    @Test func aNotModifiedWithoutADateDoesNotLeaveTheAnswerOld() throws {
        // Given an answer stored with an old Date and Age, and a 304 that carries neither
        let sent = Date(timeIntervalSince1970: 1_800_000_000)
        let stored = CachedHTTPResponse(
            statusCode: 200,
            headers: ["Date": "Wed, 15 Jan 2027 08:00:00 GMT", "Age": "50", "Cache-Control": "max-age=60"],
            body: Data(), requestDate: sent, responseDate: sent)
        let notModified = try #require(
            HTTPURLResponse(url: exampleURL, statusCode: 304, httpVersion: "HTTP/1.1", headerFields: [:]))
        // When it is confirmed an hour later
        let later = sent.addingTimeInterval(3_600)
        let confirmed = stored.revalidated(by: notModified, requestDate: later, responseDate: later).response
        // Then it is fresh again: its age counts from the 304
        #expect(Freshness(of: confirmed, at: later, heuristicFraction: 0.1).isFresh)
    }
}
