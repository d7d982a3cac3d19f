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

    @Test func aRefreshThatFailsOfflineIsATransportFailure() async {
        // Given a refresh that cannot reach its server
        let thrown = await send(refreshThrowing: URLError(.notConnectedToInternet))
        // Then the caller sees the URLError as a transport failure, which isTransient and offline
        // handling recognise
        guard case .transport(let failure) = thrown as? NetworkError else {
            Issue.record("expected a transport failure, got \(String(describing: thrown))")
            return
        }
        #expect(failure.code == .notConnectedToInternet)
    }

    @Test func aRefreshsOwnErrorIsTheMiddlewares() async {
        struct SignedOut: Error {}
        let thrown = await send(refreshThrowing: SignedOut())
        guard case .middleware(let underlying) = thrown as? NetworkError else {
            Issue.record("expected a middleware failure, got \(String(describing: thrown))")
            return
        }
        #expect(underlying is SignedOut)
    }

    @Test func aRefreshRequestRefusedByTheServerArrivesAsItsNetworkError() async {
        let refused = NetworkError.timedOut(.seconds(1))
        let thrown = await send(refreshThrowing: refused)
        guard case .timedOut = thrown as? NetworkError else {
            Issue.record("expected the refresh's own NetworkError, got \(String(describing: thrown))")
            return
        }
    }
}
