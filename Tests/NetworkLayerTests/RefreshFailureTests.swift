import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a failed token refresh reaches the caller: offline is a transport failure like any other, so an
/// app's offline handling sees it; a refresh's own error is the middleware's.
@Suite("TokenRefreshMiddleware: a refresh that fails")
struct RefreshFailureTests {
    func send(refreshThrowing failure: any Error & Sendable) async -> (any Error)? {
        let provider = NetworkProvider(
            session: .status(401),
            middlewares: [
                TokenRefreshMiddleware { throw failure },
                AuthorizationMiddleware(hosts: ["api.example.com"]) { "t" },
            ])
        return await error(of: { try await provider.send(Endpoint<Data>(baseURL: exampleURL, path: "me")) })
    }

    @Test func aRefreshThatFailsOfflineIsATransportFailure() async throws {
        // Given a refresh that cannot reach its server
        let thrown = await send(refreshThrowing: URLError(.notConnectedToInternet))
        // Then the caller sees the URLError as a transport failure, which isTransient and offline
        // handling recognise
        let failure = try #require(
            (thrown as? NetworkError)?.transportError,
            "expected a transport failure, got \(String(describing: thrown))")
        #expect(failure.code == .notConnectedToInternet)
    }

    @Test func aRefreshsOwnErrorIsTheMiddlewares() async throws {
        struct SignedOut: Error {}
        let thrown = await send(refreshThrowing: SignedOut())
        let underlying = try #require(
            (thrown as? NetworkError)?.middlewareError,
            "expected a middleware failure, got \(String(describing: thrown))")
        #expect(underlying is SignedOut)
    }

    @Test func aRefreshRequestRefusedByTheServerArrivesAsItsNetworkError() async throws {
        let refused = NetworkError.timedOut(.seconds(1))
        let thrown = await send(refreshThrowing: refused)
        try #require(
            (thrown as? NetworkError)?.timeout != nil,
            "expected the refresh's own NetworkError, got \(String(describing: thrown))")
    }
}
