import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an unsafe method's success does to stored answers (RFC 9111 section 4.4): every method not known
/// safe, uploads included, in every partition, and the same-origin URLs its answer names.
@Suite("HTTP cache: invalidation")
struct HTTPCacheInvalidationTests {
    static let fresh: ScriptedOrigin.Answer = .init(headers: ["Cache-Control": "max-age=600"])

    /// Stores the film's answer, moves the clock a second, runs `change`, and says whether the film is
    /// still answered from the store.
    private func isStillServed(
        _ origin: ScriptedOrigin, after change: (NetworkProvider) async throws -> Void
    ) async throws -> Bool {
        let provider = origin.provider()
        _ = try await provider.send(origin.film())
        origin.date.advance(by: 1)
        try await change(provider)
        return try await provider.response(for: origin.film()).source.isFromCache
    }

    @Test func aMethodNotKnownSafeInvalidatesTheStoredAnswer() async throws {
        for method: HTTPMethod in ["MOVE", "PURGE", "POST", "DELETE"] {
            // Given a fresh stored answer
            let origin = ScriptedOrigin()
            origin.answer(Self.fresh)
            // When a request with the method succeeds on its URL
            let served = try await isStillServed(origin) { _ = try await $0.send(origin.film(method)) }
            // Then the stored answer is not served again
            #expect(served == false, "after \(method.rawValue)")
        }
    }

    @Test func aSafeMethodLeavesTheStoredAnswer() async throws {
        // Given a fresh stored answer
        let origin = ScriptedOrigin()
        origin.answer(Self.fresh)
        // When a HEAD succeeds on its URL
        let served = try await isStillServed(origin) { _ = try await $0.send(origin.film(.head)) }
        // Then the stored answer is still served
        #expect(served)
    }

    @Test func anUnsafeMethodWithCredentialsInvalidatesTheAnonymousAnswer() async throws {
        // Given an anonymous fresh stored answer
        let origin = ScriptedOrigin()
        origin.answer(Self.fresh)
        // When a PUT carrying a user's token succeeds on its URL (another partition)
        let served = try await isStillServed(origin) {
            _ = try await $0.send(
                origin.film(.put, headers: ["Authorization": "Bearer T-\(UUID().uuidString)"]))
        }
        // Then the anonymous answer is not served again
        #expect(served == false)
    }

    @Test func anUploadInvalidatesTheStoredAnswer() async throws {
        // Given a fresh stored answer
        let origin = ScriptedOrigin()
        origin.answer(Self.fresh)
        // When an upload to its URL succeeds
        let served = try await isStillServed(origin) {
            _ = try await $0.upload(origin.film(.put), data: Data("new".utf8))
        }
        // Then the stored answer is not served again
        #expect(served == false)
    }

    @Test func theSameOriginLocationOfAnUnsafeAnswerIsInvalidated() async throws {
        // Given a fresh stored answer for /films/1
        let origin = ScriptedOrigin()
        origin.answer(
            Self.fresh, .init(status: 201, headers: ["Location": "/films/1"]), Self.fresh)
        // When a POST to /films answers with Location: /films/1
        let served = try await isStillServed(origin) {
            _ = try await $0.send(origin.film(.post, path: "/films"))
        }
        // Then /films/1's stored answer is not served again
        #expect(served == false)
    }

    @Test func aFailedUnsafeMethodLeavesTheStoredAnswer() async throws {
        // Given a fresh stored answer
        let origin = ScriptedOrigin()
        origin.answer(Self.fresh, .init(status: 409), Self.fresh)
        // When a DELETE on its URL fails with 409
        let served = try await isStillServed(origin) { _ = try? await $0.send(origin.film(.delete)) }
        // Then the stored answer is still served
        #expect(served)
    }
}
