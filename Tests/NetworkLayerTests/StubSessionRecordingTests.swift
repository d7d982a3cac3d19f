import Foundation
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `StubSession` keeps the requests it answered, credentials hidden, so a test of authentication can
/// say what was sent without a closure of its own.
@Suite("StubSession: the requests it received")
struct StubSessionRecordingTests {
    struct Me: Decodable, Sendable { let name: String }

    let endpoint = Endpoint<Me>(
        baseURL: exampleURL, path: "me",
        queryItems: [
            URLQueryItem(name: "page", value: "2"), URLQueryItem(name: "api_key", value: "KEY-123"),
        ],
        headers: ["Authorization": "Bearer token-1", "Accept": "application/json"])

    @Test func eachRequestIsRecordedWithItsMethodURLAndHeaders() async throws {
        // Given a stub session behind a provider
        let session = StubSession.json(#"{"name":"Kim"}"#)
        let provider = NetworkProvider(session: session)
        // When two requests are sent
        _ = try await provider.send(endpoint)
        _ = try await provider.send(endpoint)
        // Then both are recorded, in order
        #expect(session.requests.count == 2)
        let first = try #require(session.requests.first)
        #expect(first.method == "GET")
        #expect(first.url.hasPrefix(exampleURL.appendingPathComponent("me").absoluteString + "?"))
        #expect(first.url.contains("page=2"))
        #expect(first.headers["Accept"] == "application/json")
    }

    @Test func credentialsAreHiddenButCanBeCompared() async throws {
        // Given
        let session = StubSession.json(#"{"name":"Kim"}"#)
        _ = try await NetworkProvider(session: session).send(endpoint)
        let request = try #require(session.requests.first)
        // Then no credential is shown, in the fields or the description
        #expect(request.headers["Authorization"] == "REDACTED")
        #expect(!request.url.contains("KEY-123"))
        #expect(!"\(request)".contains("token-1"))
        #expect(!String(reflecting: request).contains("token-1"))
        var dumped = ""
        dump(session.requests, to: &dumped)
        dump(session, to: &dumped)
        #expect(!dumped.contains("token-1"))
        #expect(!dumped.contains("KEY-123"))
        #expect(!Mirror(reflecting: request).children.contains { "\($0.value)".contains("token-1") })
        // And a test can still check which credential went out
        #expect(request.header("authorization", is: "Bearer token-1"))
        #expect(!request.header("Authorization", is: "Bearer token-2"))
    }

    @Test func aCopyOfTheSessionSeesTheSameRequests() async throws {
        // Given a session copied into the provider
        let session = StubSession.status(204)
        let copy = session
        // When
        _ = try? await copy.response(for: URLRequest(url: URL(string: "https://api.example.com/x")!))
        // Then
        #expect(session.requests.map(\.url) == ["https://api.example.com/x"])
    }

    @Test func onlyTheLatestThousandRequestsAreKept() async throws {
        let session = StubSession.status(204)
        for index in 0..<2_005 {
            _ = try await session.response(for: URLRequest(url: URL(string: "https://a.example/\(index)")!))
        }
        #expect(session.requests.count == StubSession.recordedLimit)
        #expect(session.requests.first?.url == "https://a.example/1005")
        #expect(session.requests.last?.url == "https://a.example/2004")
    }
}
