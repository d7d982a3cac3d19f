import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Errors thrown by a custom session")
struct SessionErrorTests {
    @Test func aNonURLErrorFromTheSessionIsASessionErrorNotAMiddlewareError() async throws {
        // Given a session that fails with an error of its own
        struct Disconnected: Error {}
        let provider = NetworkProvider(session: StubSession { _ in throw Disconnected() })
        // When
        let thrown = await error { try await provider.send(Endpoint<Movie>(baseURL: exampleURL, path: "m")) }
        // Then
        let underlying = try #require(
            (thrown as? NetworkError)?.sessionError,
            "expected a session error, got \(String(describing: thrown))")
        #expect(underlying is Disconnected)
        #expect(thrown.map { "\($0)" }?.hasPrefix("The session failed:") == true)
    }

    @Test func aMiddlewaresOwnErrorIsStillAMiddlewareError() async throws {
        // Given a middleware that throws before the session is reached
        struct Refused: Error {}
        struct Throwing: NetworkMiddleware {
            func intercept(
                _ request: URLRequest, context: RequestContext, next: Next
            ) async throws -> (Data, HTTPURLResponse) { throw Refused() }
        }
        let provider = NetworkProvider(session: .json("{}"), middlewares: [Throwing()])
        // When
        let thrown = await error { try await provider.send(Endpoint<Movie>(baseURL: exampleURL, path: "m")) }
        // Then
        let underlying = try #require(
            (thrown as? NetworkError)?.middlewareError,
            "expected a middleware error, got \(String(describing: thrown))")
        #expect(underlying is Refused)
    }
}
