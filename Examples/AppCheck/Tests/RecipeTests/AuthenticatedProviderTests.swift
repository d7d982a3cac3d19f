import Foundation
import NetworkLayer
import Recipes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Recipe 1: sign-in, renewal and retries, in the order that makes them work together.
@Suite("Recipe: a provider with sign-in")
struct AuthenticatedProviderTests {
    /// Refuses every token but "renewed".
    let server = StubSession { request in
        guard request.value(forHTTPHeaderField: "Authorization") == "Bearer renewed" else {
            return (Data(), try StubSession.makeResponse(for: request, status: 401))
        }
        return (Data(pageJSON(["Harbin"]).utf8), try StubSession.makeResponse(for: request, status: 200))
    }

    @Test func anExpiredTokenIsRenewedAndTheRequestSentAgainWithTheNewOne() async throws {
        // Given a signed-in user whose token has expired
        let credentials = Credentials(accessToken: "expired") { "renewed" }
        let provider = AuthenticatedProvider.make(session: server, credentials: credentials)
        // When
        let page = try await provider.search("Harbin", page: 1)
        // Then the request went twice: with the old token, then the new one
        #expect(page.films.map(\.title) == ["Harbin"])
        #expect(server.requests.count == 2)
        #expect(server.requests.first?.header("Authorization", is: "Bearer expired") == true)
        #expect(server.requests.last?.header("Authorization", is: "Bearer renewed") == true)
    }

    @Test func requestsThatFailTogetherShareOneRenewal() async throws {
        // Given an expired token, and a count of renewals
        let renewals = Renewals()
        let credentials = Credentials(accessToken: "expired") { await renewals.count() }
        let provider = AuthenticatedProvider.make(session: server, credentials: credentials)
        // When five searches run at once
        try await withThrowingTaskGroup(of: FilmPage.self) { group in
            for index in 0..<5 { group.addTask { try await provider.search("q\(index)", page: 1) } }
            try await group.waitForAll()
        }
        // Then the token was renewed once
        #expect(await renewals.total == 1)
    }

    @Test func theTokenGoesToTheAPIsHostOnly() async throws {
        // Given
        let credentials = Credentials(accessToken: "renewed") { "renewed" }
        let provider = AuthenticatedProvider.make(session: server, credentials: credentials)
        // When a URL the API pointed at, on another host, is fetched
        _ = try? await provider.send(Endpoint<Data>(url: URL(string: "https://images.example.com/p.png")!))
        // Then it was sent, and neither it nor its retry after the server's 401 carried a token
        try #require(!server.requests.isEmpty)
        #expect(server.requests.allSatisfy { $0.headers["Authorization"] == nil })
    }
}

/// Counts renewals.
actor Renewals {
    private(set) var total = 0
    func count() -> String {
        total += 1
        return "renewed"
    }
}
