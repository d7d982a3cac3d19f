import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A background download's file waits beside its destination until the answer is accepted: a rejected
/// answer never replaces the good file already there.
@Suite("Background downloads: staged until accepted")
struct BackgroundStagingTests {
    /// Refuses every answer after it arrived, as a middleware checking a signature would.
    struct RejectingMiddleware: NetworkMiddleware {
        struct Rejected: Error {}

        func intercept(
            _ request: URLRequest, context: RequestContext, next: Next
        ) async throws -> (Data, HTTPURLResponse) {
            _ = try await next(request)
            throw Rejected()
        }
    }

    @Test func anAnswerAMiddlewareRejectsLeavesThePreviousFileInPlace() async throws {
        // Given a provider on a background session whose middleware rejects the answer, and a
        // destination holding a good file
        let server = try await TestServer.shared.value
        let folder = try TemporaryFolder.create("staging")
        let destination = folder.url.appendingPathComponent("report.bin")
        try Data("good".utf8).write(to: destination)
        let provider = NetworkProvider(
            sessionConfiguration: .ephemeral, delegate: nil, middlewares: [RejectingMiddleware()],
            configuration: .init(),
            background: BackgroundTasks(identifier: UUID().uuidString, report: { _ in }))
        let endpoint = EndpointGroup(baseURL: server.baseURL).get(
            "ranged", query: ["bytes": "1000"], as: Data.self)
        // When
        let failure = await error { try await provider.download(endpoint, to: destination) }
        // Then the good file is still there, and nothing else is left beside it
        guard case NetworkError.middleware(let underlying)? = failure else {
            Issue.record("expected the middleware's rejection, got \(String(describing: failure))")
            return
        }
        #expect(underlying is RejectingMiddleware.Rejected)
        #expect(try Data(contentsOf: destination) == Data("good".utf8))
        #expect(folder.fileNames == ["report.bin"])
    }
}
