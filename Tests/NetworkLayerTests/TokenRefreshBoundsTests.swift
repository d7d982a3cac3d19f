import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Token refresh: bounded")
struct TokenRefreshBoundsTests {
    @Test func aRefreshSentThroughTheSameProviderAndRefusedFailsInsteadOfWaitingForItself() async throws {
        // Given a server that refuses everything with 401, and a refresh that calls it through the
        // provider the middleware belongs to
        let (session, received) = recordingStub(.status(401))
        let box = Recorder<NetworkProvider>()
        let refresh = TokenRefreshMiddleware {
            guard let provider = box.values.first else { return }
            _ = try await provider.send(Endpoint<Data>(baseURL: exampleURL, path: "token", method: .post))
        }
        let provider = NetworkProvider(session: session, middlewares: [refresh])
        box.append(provider)
        // When
        let errors = Recorder<(any Error)?>()
        let finished = await Watchdog.finishes(within: 30) {
            errors.append(
                await error { try await provider.send(Endpoint<Movie>(baseURL: exampleURL, path: "movie")) })
        }
        // Then the call ends: the refresh's own 401 fails the refresh, which fails the request
        #expect(finished)
        let thrown = errors.values.first ?? nil
        let failure = try #require(
            (thrown as? NetworkError)?.statusFailure,
            "expected the refresh's own 401, got \(String(describing: thrown))")
        #expect(failure.statusCode == 401)
        #expect(failure.url?.lastPathComponent == "token")
        #expect(refresh.refreshCount == 0)
        #expect(received.values.map { $0.url?.lastPathComponent } == ["movie", "token"])
    }
}
