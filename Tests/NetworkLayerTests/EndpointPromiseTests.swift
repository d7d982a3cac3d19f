import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an endpoint promises about itself: its retry safety follows its method, its timeout cannot
/// overflow the transport, an absolute URL is used as given, and a decoding failure keeps its error.
@Suite("Endpoint shape")
struct EndpointPromiseTests {
    let base = URL(string: "https://api.example.com/v1")!

    @Test func changingTheMethodChangesWhetherTheEndpointIsIdempotent() {
        // Given a GET made without an explicit idempotence
        var endpoint = Endpoint<Data>(baseURL: base, path: "orders")
        #expect(endpoint.isIdempotent)
        // When it becomes a POST
        endpoint.method = .post
        // Then it is no longer retried as idempotent
        #expect(!endpoint.isIdempotent)
    }

    @Test func anIdempotenceSetByTheCallerStaysWhenTheMethodChanges() {
        // Given a POST the caller declares idempotent (an idempotency key)
        var endpoint = Endpoint<Data>(baseURL: base, path: "orders", method: .post)
        endpoint.isIdempotent = true
        // When
        endpoint.method = .patch
        // Then
        #expect(endpoint.isIdempotent)
    }

    @Test(arguments: [Duration.seconds(Int64.max), .seconds(10_000_000_000_000_000), .seconds(-5)])
    func anyTimeoutGivesURLSessionATimeoutItCanHold(timeout: Duration) throws {
        // When
        let request = try Endpoint<Data>(baseURL: base, path: "x", timeout: timeout).makeRequest()
        // Then it is between one second and a week (FoundationNetworking traps on more)
        #expect(request.timeoutInterval >= 1)
        #expect(request.timeoutInterval <= 7 * 86_400)
    }

    @Test func aHugeTimeoutIsSentWithoutCrashing() async throws {
        // Given an endpoint on the fixture server with the largest timeout there is
        let server = try await TestServer.shared.value
        let endpoint = Endpoint<Data>(baseURL: server.baseURL, path: "json", timeout: .seconds(Int64.max))
        // When
        let body = try await NetworkProvider(session: URLSession(configuration: .ephemeral)).send(endpoint)
        // Then
        #expect(!body.isEmpty)
    }

    @Test func anAbsoluteURLIsUsedExactlyAsGiven() throws {
        // Given an image URL with a trailing slash and a query
        let url = try #require(URL(string: "https://img.example.com/posters/1234/?size=large"))
        // When
        let request = try Endpoint<Data>(url: url).makeRequest()
        // Then
        #expect(request.url == url)
        #expect(request.httpMethod == "GET")
    }

    @Test func aDecodingFailureKeepsTheDecodersOwnError() async throws {
        // Given a body whose field has the wrong type
        struct Film: Decodable, Sendable { let year: Int }
        let provider = NetworkProvider(session: StubSession.json(#"{"year": "soon"}"#))
        // When
        let error = await error { try await provider.send(Endpoint<Film>(baseURL: base, path: "film")) }
        // Then the DecodingError itself is there, to switch over
        guard case .decoding(let failure)? = error as? NetworkError else {
            Issue.record("expected a decoding failure, got \(String(describing: error))")
            return
        }
        guard case .typeMismatch(_, let context)? = failure.underlying as? DecodingError else {
            Issue.record("expected a DecodingError.typeMismatch, got \(failure.underlying)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["year"])
    }
}
