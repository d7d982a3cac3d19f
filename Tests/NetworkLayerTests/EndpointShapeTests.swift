import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Endpoints: raw bytes, status sets and ordered query items")
struct EndpointShapeTests {
    let group = EndpointGroup(baseURL: exampleURL)

    @Test func aGroupEndpointTypedDataReturnsTheRawBodyInsteadOfDecodingJSON() async throws {
        // Given a body that is not JSON
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])
        let provider = NetworkProvider(session: .status(200, body: png))
        // When the group makes an endpoint typed Data
        let endpoint: Endpoint<Data> = group.get("poster.png")
        let body = try await provider.send(endpoint)
        // Then the bytes come back as they arrived
        #expect(body == png)
    }

    @Test func aDataEndpointSendsItsQueryItemsAndBody() async throws {
        // Given
        let (session, received) = recordingStub(.status(200, body: Data("ok".utf8)))
        let endpoint = Endpoint<Data>(
            baseURL: exampleURL, path: "upload", method: .post,
            queryItems: [URLQueryItem(name: "name", value: "poster")],
            body: .data(Data("bytes".utf8), contentType: "application/octet-stream"))
        // When
        _ = try await NetworkProvider(session: session).send(endpoint)
        // Then
        let request = try #require(received.values.first)
        #expect(request.url?.query == "name=poster")
        #expect(request.httpBody == Data("bytes".utf8))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
    }

    @Test func acceptedStatusCodesCanBeSingleCodesOutsideOneRange() async throws {
        // Given an endpoint accepting 200 and 304 only
        var endpoint = Endpoint<Data>(baseURL: exampleURL, path: "poster")
        endpoint.acceptableStatusCodes = [200, 304]
        // When the server answers 304, then 204
        let notModified = try await NetworkProvider(session: .status(304)).send(endpoint)
        let refused = await error { try await NetworkProvider(session: .status(204)).send(endpoint) }
        // Then 304 is a success and 204, inside 2xx but not listed, is not
        #expect(notModified.isEmpty)
        let failure = try #require(
            (refused as? NetworkError)?.statusFailure,
            "expected unacceptableStatus, got \(String(describing: refused))")
        #expect(failure.statusCode == 204)
    }

    @Test func middlewaresSeeTheEndpointsStatusSet() async throws {
        // Given a retry middleware and an endpoint accepting 503 (a maintenance page it wants to read)
        var endpoint = Endpoint<Data>(baseURL: exampleURL, path: "status")
        endpoint.acceptableStatusCodes = Set(200...299).union([503])
        let (session, received) = recordingStub(.status(503))
        let provider = NetworkProvider(
            session: session,
            middlewares: [RetryMiddleware(sleep: { _ in })])
        // When
        _ = try await provider.send(endpoint)
        // Then the accepted 503 is not retried
        #expect(received.values.count == 1)
    }

    @Test func groupQueryItemsMayRepeatANameAndKeepTheirOrder() throws {
        // Given
        let endpoint: Endpoint<Movie> = group.get(
            "movies",
            query: [
                URLQueryItem(name: "genre", value: "drama"), URLQueryItem(name: "year", value: "2023"),
                URLQueryItem(name: "genre", value: "comedy"),
            ])
        // When
        let request = try endpoint.makeRequest()
        // Then
        #expect(request.url?.query == "genre=drama&year=2023&genre=comedy")
    }
}
