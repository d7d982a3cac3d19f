import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A session or middleware that outlives its provider is released by the work still holding it, never
/// under one of NetworkLayer's locks, so its `deinit` may call back into the middleware it shares. Each
/// test would hang if that release happened under the lock its `deinit` asks for.
@Suite("NetworkLayer: a deinit may call back into the middleware")
struct DeinitReentrancyTests {
    let movie = Endpoint<Movie>(baseURL: exampleURL, path: "movie", timeout: .seconds(5))

    @Test func aCoalescedRequestMayReleaseTheLastReferenceToItsSession() async throws {
        // Given a provider that coalesces GETs, whose session asks the refresh middleware in its deinit
        let refresh = TokenRefreshMiddleware {}
        let asked = Recorder<Int>()
        let gate = AsyncGate()
        var provider: NetworkProvider? = NetworkProvider(
            session: ReentrantSession(gate: gate) { asked.append(refresh.refreshCount) },
            middlewares: [refresh], configuration: .init(coalescesIdenticalGETs: true))
        // When a request is in flight and the provider is released (its timeout far above a loaded
        // machine's delays: a request that timed out before reaching the session would never enter the
        // gate, and this test would wait for it forever)
        let patient = Endpoint<Movie>(baseURL: exampleURL, path: "movie", timeout: .seconds(600))
        let request = Task { [provider] in try await provider?.send(patient) }
        await gate.waitUntilEntered()
        provider = nil
        let finished = await Watchdog.finishes {
            gate.open()
            _ = try? await request.value
            await waitWhile { asked.values.isEmpty }
        }
        // Then the session was released once its work ended, and its deinit ran to the end
        try #require(finished, "releasing the session deadlocked")
        #expect(asked.values == [0])
    }

    @Test func aTimedOutRequestMayReleaseTheLastReferenceToItsSession() async throws {
        // Given a session that never answers until opened, and asks the middleware in its deinit
        let refresh = TokenRefreshMiddleware {}
        let asked = Recorder<Int>()
        let gate = AsyncGate()
        let clock = TestClock()
        var provider: NetworkProvider? = NetworkProvider(
            session: ReentrantSession(gate: gate) { asked.append(refresh.refreshCount) },
            middlewares: [refresh], configuration: .init(clock: clock))
        let request = Task { [provider, movie] in try await provider?.send(movie) }
        await gate.waitUntilEntered()
        provider = nil
        // When the deadline passes, and the abandoned work then ends
        let outcome = Recorder<String>()
        let finished = await Watchdog.finishes {
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(6))
            do {
                _ = try await request.value
            } catch {
                outcome.append("\(error)")
            }
            gate.open()
            await waitWhile { asked.values.isEmpty }
        }
        // Then
        try #require(finished, "releasing the session deadlocked")
        #expect(outcome.values.first?.contains("timed out") == true)
        #expect(asked.values == [0])
    }
}

/// A session that holds each request until its gate opens, and runs `onDeinit` when released.
private final class ReentrantSession: NetworkSessionType {
    let gate: AsyncGate
    let onDeinit: @Sendable () -> Void

    init(gate: AsyncGate, onDeinit: @escaping @Sendable () -> Void) {
        self.gate = gate
        self.onDeinit = onDeinit
    }

    deinit { onDeinit() }

    func response(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        await gate.enter()
        let body = Data(#"{"title":"Wonka","year":2023}"#.utf8)
        let response = HTTPURLResponse(
            url: exampleURL, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])
        return (body, try #require(response))
    }
}
