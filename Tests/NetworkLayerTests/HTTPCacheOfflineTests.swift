import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Stale answers when the network fails: `stale-if-error`, the app's accepted staleness, what forbids
/// them, and no retry backoff before them.
@Suite("HTTP cache: offline")
struct HTTPCacheOfflineTests {
    /// A provider whose session the test can take offline, with the default `RetryMiddleware` recording
    /// its waits instead of sleeping.
    private func offlineProvider(_ world: CacheWorld) -> (NetworkProvider, OfflineSwitch, Recorder<Duration>)
    {
        let network = OfflineSwitch()
        let waits = Recorder<Duration>()
        let retry = RetryMiddleware(sleep: { waits.append($0) })
        return (world.provider(session: network, middlewares: [retry]), network, waits)
    }

    @Test func offlineAnAcceptablyStaleAnswerComesAtOnceWithoutRetries() async throws {
        // Given a stored answer an hour stale, and a policy that accepts a day
        let world = try await CacheWorld()
        let (provider, network, waits) = offlineProvider(world)
        let policy = CachePolicy.useProtocol.acceptingStaleOnError(upTo: .seconds(86_400))
        _ = try await provider.send(world.resource(["cc": "max-age=60"], policy: policy))
        world.date.advance(by: 3_660)
        // When the device is offline
        network.goOffline()
        let answer = try await provider.response(for: world.resource(["cc": "max-age=60"], policy: policy))
        // Then the stored answer comes, saying it is stale and why, after one attempt and no backoff
        guard case .staleAfterError(let age, let error) = answer.source else {
            Issue.record("expected a stale answer, got \(answer.source)")
            return
        }
        #expect(age >= .seconds(3_660) && age < .seconds(3_665))
        #expect(error.isOffline)
        #expect(network.offlineAttempts == 1)
        #expect(waits.values.isEmpty)
    }

    @Test func offlineWithoutAnAcceptableAnswerTheRetriesAreTodays() async throws {
        // Given a stored answer but a policy that accepts no staleness
        let world = try await CacheWorld()
        let (provider, network, waits) = offlineProvider(world)
        _ = try await provider.send(world.resource(["cc": "max-age=60"]))
        world.date.advance(by: 3_660)
        // When the device is offline
        network.goOffline()
        let failure = await error { try await provider.send(world.resource(["cc": "max-age=60"])) }
        // Then the request is retried as without a cache, and fails offline
        #expect((failure as? NetworkError)?.isOffline == true)
        #expect(network.offlineAttempts == 3)
        #expect(waits.values.count == 2)
    }

    @Test func staleIfErrorFromTheServerIsHonoured() async throws {
        // Given an answer whose server allows an hour of stale-if-error, now ten minutes stale
        let world = try await CacheWorld()
        let (provider, network, _) = offlineProvider(world)
        let query = ["cc": "max-age=60, stale-if-error=3600"]
        _ = try await provider.send(world.resource(query))
        world.date.advance(by: 660)
        // When the device is offline
        network.goOffline()
        let answer = try await provider.response(for: world.resource(query))
        // Then the stored answer comes, stale
        #expect(answer.source.isStale)
    }

    @Test func staleIfErrorHasALimit() async throws {
        // Given an answer whose server allows ten minutes of stale-if-error, now two hours stale
        let world = try await CacheWorld()
        let (provider, network, _) = offlineProvider(world)
        let query = ["cc": "max-age=60, stale-if-error=600"]
        _ = try await provider.send(world.resource(query))
        world.date.advance(by: 7_260)
        // When the device is offline
        network.goOffline()
        let failure = await error { try await provider.send(world.resource(query)) }
        // Then the failure stands
        #expect((failure as? NetworkError)?.isOffline == true)
    }

    @Test func mustRevalidateForbidsAStaleAnswerEvenOffline() async throws {
        // Given an answer marked must-revalidate, and a policy that accepts a day of staleness
        let world = try await CacheWorld()
        let (provider, network, _) = offlineProvider(world)
        let policy = CachePolicy.useProtocol.acceptingStaleOnError(upTo: .seconds(86_400))
        let query = ["cc": "max-age=60, must-revalidate"]
        _ = try await provider.send(world.resource(query, policy: policy))
        world.date.advance(by: 120)
        // When the device is offline
        network.goOffline()
        let failure = await error { try await provider.send(world.resource(query, policy: policy)) }
        // Then the failure stands (RFC 9111 section 5.2.2.2)
        #expect((failure as? NetworkError)?.isOffline == true)
    }

    @Test func aServerErrorIsAnsweredWithAnAcceptablyStaleAnswer() async throws {
        // Given a stored answer and a policy that accepts a day of staleness
        let world = try await CacheWorld()
        let provider = world.provider()
        let policy = CachePolicy.useProtocol.acceptingStaleOnError(upTo: .seconds(86_400))
        _ = try await provider.send(world.resource(["cc": "max-age=60"], policy: policy))
        world.date.advance(by: 120)
        // When the server answers 503
        try await world.change(status: 503)
        let answer = try await provider.response(for: world.resource(["cc": "max-age=60"], policy: policy))
        // Then the stored answer comes, with the 503 as the reason
        guard case .staleAfterError(_, .unacceptableStatus(let failure)) = answer.source else {
            Issue.record("expected a stale answer after a 503, got \(answer.source)")
            return
        }
        #expect(failure.statusCode == 503)
        #expect(answer.statusCode == 200)
    }

    @Test func aServerThatIsGoneIsAnsweredWithAnAcceptablyStaleAnswer() async throws {
        // Given a stored answer from a server of its own, and a policy that accepts a day of staleness
        var server: TestServer? = try TestServer(script: TestServer.fixtureScript)
        let world = try await CacheWorld()
        let provider = world.provider()
        let policy = CachePolicy.useProtocol.acceptingStaleOnError(upTo: .seconds(86_400))
        var endpoint: Endpoint<CachedResource> = EndpointGroup(baseURL: try #require(server?.baseURL))
            .get("cached", query: ["id": world.id, "cc": "max-age=60"])
        endpoint.cachePolicy = policy
        _ = try await provider.send(endpoint)
        world.date.advance(by: 120)
        // When the server goes away (a refused connection, on Linux as on Apple platforms)
        server = nil
        let answer = try await provider.response(for: endpoint)
        // Then the stored answer comes, with the transport error as the reason
        guard case .staleAfterError(_, .transport) = answer.source else {
            Issue.record("expected a stale answer after a transport error, got \(answer.source)")
            return
        }
        _ = server
    }
}
