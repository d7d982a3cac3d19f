import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The request's own directives (RFC 9111 sections 5.2.1 and 5.4), a `Cache-Control` too long to read,
/// and where a key keeps a path's secrets.
@Suite("HTTP cache: request directives and keys")
struct HTTPCacheRequestDirectiveTests {
    @Test func onlyIfCachedDoesNotServeAStaleMustRevalidateAnswer() async throws {
        // Given a stale stored answer marked must-revalidate
        let origin = ScriptedOrigin()
        origin.answer(.init(headers: ["Cache-Control": "max-age=1, must-revalidate"]))
        let provider = origin.provider()
        _ = try await provider.send(origin.film())
        origin.date.advance(by: 10)
        // When a request says only-if-cached
        // Then it fails as a 504 would, without asking the server
        await #expect(throws: NetworkError.self) {
            try await provider.send(origin.film(headers: ["Cache-Control": "only-if-cached"]))
        }
        #expect(origin.requests.count == 1)
    }

    @Test func onlyIfCachedServesAFreshAnswer() async throws {
        // Given a fresh stored answer
        let origin = ScriptedOrigin()
        origin.answer(.init(headers: ["Cache-Control": "max-age=600"]))
        let provider = origin.provider()
        _ = try await provider.send(origin.film())
        // When a request says only-if-cached
        let answer = try await provider.response(
            for: origin.film(headers: ["Cache-Control": "only-if-cached"]))
        // Then the stored answer is used
        #expect(answer.source.isFromCache)
    }

    @Test func pragmaNoCacheWithoutCacheControlRevalidates() async throws {
        // Given a fresh stored answer
        let origin = ScriptedOrigin()
        origin.answer(.init(headers: ["Cache-Control": "max-age=600", "ETag": "\"v1\""]))
        let provider = origin.provider()
        _ = try await provider.send(origin.film())
        // When a request says Pragma: no-cache and nothing else
        _ = try await provider.send(origin.film(headers: ["Pragma": "no-cache"]))
        // Then the server is asked, with the stored validator
        #expect(origin.requests.count == 2)
        #expect(origin.requests.last?.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")
    }

    @Test func aNoStoreAfterTheDirectivesReadStillCounts() {
        // Given a field whose no-store comes after more directives than are read
        let field =
            (1...CacheControl.maximumDirectives).map { "x\($0)" }.joined(separator: ", ") + ", no-store"
        // When / Then: reading it fails closed
        #expect(CacheControl(field).noStore)
        #expect(CacheControl(String(repeating: "x", count: CacheControl.maximumLength + 1)).noStore)
        #expect(CacheControl("max-age=5, no-cache").noStore == false)
    }

    @Test func aMatrixParameterIsInNoKey() throws {
        // Given a URL carrying a session id as a path parameter
        let secret = "SECRET-\(UUID().uuidString)"
        let request = URLRequest(
            url: try #require(URL(string: "https://api.example.com/x;jsessionid=\(secret)/y")))
        // When its key is made
        let key = try #require(CacheKey(request))
        // Then the secret is not in it, and it counts in the partition
        #expect(!key.value.contains(secret))
        #expect(!key.value.hasPrefix("public"))
    }

    @Test func aPathTokenNobodyDeclaredIsInNoKey() throws {
        // Given a URL with a token in its path that was never declared
        let token = "T\(UUID().uuidString)"
        let request = URLRequest(
            url: try #require(URL(string: "https://api.example.com/bot\(token)/getMe?q=1")))
        // When its key is made
        let key = try #require(CacheKey(request)).value
        // Then neither the token nor the path is in clear; the origin is
        #expect(!key.contains(token))
        #expect(!key.contains("getMe"))
        #expect(key.contains("https://api.example.com"))
    }

    @Test func anAppsPartitionKeepsResourcesTheURLTellsApartApart() throws {
        // Given one user's partition, and URLs that differ only in a credential-like query item or a
        // matrix parameter
        let pairs = [
            ("https://api.example.com/list?pageToken=A", "https://api.example.com/list?pageToken=B"),
            ("https://api.example.com/files/report;v=2", "https://api.example.com/files/report;v=3"),
        ]
        for (first, second) in pairs {
            // When their keys are made
            let keys = [first, second].compactMap { text in
                URL(string: text).flatMap { CacheKey(URLRequest(url: $0), partition: "user-42")?.value }
            }
            // Then they are two keys, in the app's partition
            #expect(keys.count == 2 && keys.first != keys.last, "\(first)")
            #expect(keys.allSatisfy { $0.hasPrefix("app-") })
        }
    }
}
