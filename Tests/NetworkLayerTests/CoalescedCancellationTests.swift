import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Coalesced requests and cancellation")
struct CoalescedCancellationTests {
    /// A session held at a gate, counting calls and whether its call was cancelled.
    final class HeldSession: NetworkSessionType, Sendable {
        let calls = Recorder<Int>()
        let cancellations = Recorder<Int>()
        let gate = AsyncGate()

        func response(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            calls.append(1)
            await withTaskCancellationHandler {
                await gate.enter()
            } onCancel: {
                cancellations.append(1)
                gate.open()
            }
            try Task.checkCancellation()
            return (
                Data(#"{"title":"Wonka","year":2023}"#.utf8),
                try StubSession.makeResponse(for: request, status: 200)
            )
        }
    }

    let endpoint = Endpoint<Movie>(baseURL: exampleURL, path: "movie")

    /// Two identical GETs, both waiting for one call the session holds.
    func twoCallersSharingAHeldCall() async -> (HeldSession, Task<Movie, any Error>, Task<Movie, any Error>) {
        let session = HeldSession()
        let provider = NetworkProvider(session: session, configuration: .init(coalescesIdenticalGETs: true))
        let first = Task { try await provider.send(endpoint) }
        let second = Task { try await provider.send(endpoint) }
        await session.gate.waitUntilEntered()
        await waitWhile { provider.coalescedWaiters < 2 }
        return (session, first, second)
    }

    @Test func aCancelledCallerLeavesAtOnceWhileTheSharedCallGoesOnForTheOthers() async throws {
        // Given two identical GETs sharing one held call
        let (session, first, second) = await twoCallersSharingAHeldCall()
        // When the first caller is cancelled while the call is still held
        first.cancel()
        let thrown = await error { try await first.value }
        // Then it leaves with CancellationError before the call answers, and the call is not cancelled
        #expect(thrown is CancellationError)
        #expect(session.cancellations.values.isEmpty)
        session.gate.open()
        #expect(try await second.value.title == "Wonka")
        #expect(session.calls.values.count == 1)
    }

    @Test func theSharedCallIsCancelledWhenEveryCallerHasLeft() async throws {
        // Given two identical GETs sharing one held call
        let (session, first, second) = await twoCallersSharingAHeldCall()
        // When both are cancelled
        first.cancel()
        second.cancel()
        // Then both leave with CancellationError and the session's call is cancelled
        #expect(await error { try await first.value } is CancellationError)
        #expect(await error { try await second.value } is CancellationError)
        await waitWhile { session.cancellations.values.isEmpty }
        #expect(session.cancellations.values.count == 1)
    }

    @Test func aRequestAfterAnAbandonedCallStartsAFreshOne() async throws {
        // Given a shared call every caller has left
        let session = HeldSession()
        let provider = NetworkProvider(session: session, configuration: .init(coalescesIdenticalGETs: true))
        let abandoned = Task { try await provider.send(endpoint) }
        await session.gate.waitUntilEntered()
        abandoned.cancel()
        _ = await error { try await abandoned.value }
        // When the same GET is sent again
        let fresh = Task { try await provider.send(endpoint) }
        await waitWhile { session.calls.values.count < 2 }
        session.gate.open()
        // Then it gets its own call and its value
        #expect(try await fresh.value.title == "Wonka")
    }

    @Test func anAlreadyCancelledCallerJoinsNothingAndSendsNothing() async throws {
        // Given
        let session = HeldSession()
        let provider = NetworkProvider(session: session, configuration: .init(coalescesIdenticalGETs: true))
        // When a task cancelled before it sends
        let request = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await provider.send(endpoint)
        }
        // Then
        #expect(await error { try await request.value } is CancellationError)
        #expect(session.calls.values.isEmpty)
    }
}

@Suite("A whole-body call's start")
struct WholeBodyStartTests {
    @Test func aTaskCancelledBeforeTheStartSendsNothing() async throws {
        // Given a start that counts its calls, guarded, and a task (a shared call's, say) cancelled
        // before it starts the request
        let started = Recorder<Int>()
        let guarded = WholeBodyCalls.unlessCancelled { _, _, _ in
            started.append(1)
            return {}
        }
        let rules = AttemptRules(endpoint: "GET /", accepts: 200..<300, limit: 100)
        let request = URLRequest(url: exampleURL)
        let task = Task {
            await waitWhile { !Task.isCancelled }
            return await withCheckedContinuation { answer in
                _ = guarded(request, rules) { answer.resume(returning: $0) }
            }
        }
        // When
        task.cancel()
        let outcome = await task.value
        // Then nothing was started, and the call ends as cancelled
        #expect(started.values.isEmpty)
        guard case .failure(let error as URLError) = outcome else {
            Issue.record("expected a cancelled call, got \(outcome)")
            return
        }
        #expect(error.code == .cancelled)
    }
}
