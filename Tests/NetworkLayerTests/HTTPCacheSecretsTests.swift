import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Secrets never reach the store, and one user's answers never reach another.
@Suite("HTTP cache: secrets")
struct HTTPCacheSecretsTests {
    /// A store that keeps everything it is given, for the test to read.
    final class KeepingStore: HTTPCacheStore {
        let kept = Locked<[String: CachedHTTPResponse]>([:])
        func response(forKey key: String) -> CachedHTTPResponse? { kept.withLock { $0[key] } }
        func store(_ response: CachedHTTPResponse, forKey key: String) {
            kept.withLock { $0[key] = response }
        }
        func removeResponse(forKey key: String) { kept.withLock { $0[key] = nil } }
        func removeAll() { kept.withLock { $0 = [:] } }
        /// Every key and every stored byte, as text.
        var everything: String {
            kept.withLock { kept in
                kept.map { key, response in
                    key + String(decoding: response.serialized(), as: UTF8.self)
                }.joined(separator: "\n")
            }
        }
    }

    @Test func aCredentialQueryValueIsInNoKeyAndNoStoredByte() async throws {
        // Given an API whose key travels as ?serviceKey=
        let server = try await TestServer.shared.value
        let store = KeepingStore()
        var configuration = NetworkProvider.Configuration()
        configuration.httpCache = HTTPCache(store: store)
        let provider = NetworkProvider(
            session: URLSession(configuration: .ephemeral), configuration: configuration)
        let secret = "SK-\(UUID().uuidString)"
        let group = EndpointGroup(
            baseURL: server.baseURL, credentialQueryItems: [URLQueryItem(name: "serviceKey", value: secret)])
        // When an answer is stored
        let endpoint: Endpoint<CachedResource> = group.get(
            "cached", query: ["id": UUID().uuidString, "cc": "max-age=100", "vary": "Authorization"])
        _ = try await provider.send(endpoint)
        // Then the key and the bytes hold no trace of the value
        #expect(store.kept.withLock { $0.count } == 1)
        #expect(!store.everything.contains(secret))
        #expect(!store.everything.contains("serviceKey"))
    }

    @Test func aCredentialHeaderIsInNoStoredByteEvenWhenTheAnswerVariesOnIt() async throws {
        // Given a bearer token, and an answer that varies on Authorization
        let server = try await TestServer.shared.value
        let store = KeepingStore()
        var configuration = NetworkProvider.Configuration()
        configuration.httpCache = HTTPCache(store: store)
        let token = "TOKEN-\(UUID().uuidString)"
        let group = EndpointGroup(baseURL: server.baseURL)
        let provider = NetworkProvider(
            session: URLSession(configuration: .ephemeral),
            middlewares: [AuthorizationMiddleware(for: group) { token }], configuration: configuration)
        // When an answer is stored
        let endpoint: Endpoint<CachedResource> = group.get(
            "cached", query: ["id": UUID().uuidString, "cc": "max-age=100", "vary": "Authorization"])
        _ = try await provider.send(endpoint)
        // Then the token is nowhere in what was stored
        #expect(store.kept.withLock { $0.count } == 1)
        #expect(!store.everything.contains(token))
    }

    @Test func afterALogoutAndAnotherLoginTheFirstUsersAnswerIsNotServed() async throws {
        // Given a fresh answer stored for Alice's token
        let server = try await TestServer.shared.value
        var configuration = NetworkProvider.Configuration()
        configuration.httpCache = HTTPCache()
        let alice = "TOKEN-ALICE-\(UUID().uuidString)"
        let bob = "TOKEN-BOB-\(UUID().uuidString)"
        let user = Locked(alice)
        let group = EndpointGroup(baseURL: server.baseURL)
        let provider = NetworkProvider(
            session: URLSession(configuration: .ephemeral),
            middlewares: [AuthorizationMiddleware(for: group) { user.withLock { $0 } }],
            configuration: configuration)
        let id = UUID().uuidString
        let endpoint: Endpoint<CachedResource> = group.get("cached", query: ["id": id, "cc": "max-age=100"])
        _ = try await provider.send(endpoint)
        // When Bob logs in and asks for the same URL
        user.withLock { $0 = bob }
        let bobs = try await provider.response(for: endpoint)
        // Then Bob's answer comes from the server, asked with Bob's token
        #expect(bobs.source.isFromCache == false)
        // And when Alice logs in again, her own stored answer is still hers
        user.withLock { $0 = alice }
        let alicesAgain = try await provider.response(for: endpoint)
        #expect(alicesAgain.source.isFromCache)
        #expect(
            try await CacheWorld.log(of: id, on: server).map(\.authorization) == [
                "Bearer \(alice)", "Bearer \(bob)",
            ])
    }

    @Test func setCookieIsNeverStored() throws {
        // Given a response that sets a cookie
        let http = try #require(
            HTTPURLResponse(
                url: exampleURL, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: [
                    "Set-Cookie": "session=SECRET", "Cache-Control": "max-age=60", "X-Api-Key": "K",
                ]))
        // When it is made a stored answer
        let stored = try #require(
            CachedHTTPResponse(
                storing: http, body: Data(), for: URLRequest(url: exampleURL), requestDate: Date(),
                responseDate: Date()))
        // Then the cookie and the key-like field are not in it
        #expect(stored.header("set-cookie") == nil)
        #expect(stored.header("x-api-key") == nil)
        #expect(stored.header("cache-control") == "max-age=60")
    }
}
