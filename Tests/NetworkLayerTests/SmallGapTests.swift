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
        guard case .unacceptableStatus(let failure) = refused as? NetworkError else {
            Issue.record("expected unacceptableStatus, got \(String(describing: refused))")
            return
        }
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

@Suite("Errors thrown by a custom session")
struct SessionErrorTests {
    @Test func aNonURLErrorFromTheSessionIsASessionErrorNotAMiddlewareError() async {
        // Given a session that fails with an error of its own
        struct Disconnected: Error {}
        let provider = NetworkProvider(session: StubSession { _ in throw Disconnected() })
        // When
        let thrown = await error { try await provider.send(Endpoint<Movie>(baseURL: exampleURL, path: "m")) }
        // Then
        guard case .session(let underlying) = thrown as? NetworkError else {
            Issue.record("expected a session error, got \(String(describing: thrown))")
            return
        }
        #expect(underlying is Disconnected)
        #expect(thrown.map { "\($0)" }?.hasPrefix("The session failed:") == true)
    }

    @Test func aMiddlewaresOwnErrorIsStillAMiddlewareError() async {
        // Given a middleware that throws before the session is reached
        struct Refused: Error {}
        struct Throwing: NetworkMiddleware {
            func intercept(
                _ request: URLRequest, context: RequestContext, next: Next
            ) async throws -> (Data, HTTPURLResponse) { throw Refused() }
        }
        let provider = NetworkProvider(session: .json("{}"), middlewares: [Throwing()])
        // When
        let thrown = await error { try await provider.send(Endpoint<Movie>(baseURL: exampleURL, path: "m")) }
        // Then
        guard case .middleware(let underlying) = thrown as? NetworkError else {
            Issue.record("expected a middleware error, got \(String(describing: thrown))")
            return
        }
        #expect(underlying is Refused)
    }
}

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
        while provider.coalescedWaiters < 2 { await Task.yield() }
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
        while session.cancellations.values.isEmpty { await Task.yield() }
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
        while session.calls.values.count < 2 { await Task.yield() }
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

@Suite("Token refresh: bounded")
struct TokenRefreshBoundsTests {
    @Test func aRefreshSentThroughTheSameProviderAndRefusedFailsInsteadOfWaitingForItself() async throws {
        // Given a server that refuses everything with 401, and a refresh that calls it through the
        // provider the middleware belongs to
        let (session, received) = recordingStub(.status(401))
        let box = Recorder<NetworkProvider>()
        let refresh = TokenRefreshMiddleware {
            guard let provider = box.values.first else { return }
            _ = try await provider.send(Endpoint<Data>(baseURL: exampleURL, path: "token", method: .post))
        }
        let provider = NetworkProvider(session: session, middlewares: [refresh])
        box.append(provider)
        // When
        let errors = Recorder<(any Error)?>()
        let finished = await Watchdog.finishes(within: 30) {
            errors.append(
                await error { try await provider.send(Endpoint<Movie>(baseURL: exampleURL, path: "movie")) })
        }
        // Then the call ends: the refresh's own 401 fails the refresh, which fails the request
        #expect(finished)
        let thrown = errors.values.first ?? nil
        guard case .unacceptableStatus(let failure) = thrown as? NetworkError else {
            Issue.record("expected the refresh's own 401, got \(String(describing: thrown))")
            return
        }
        #expect(failure.statusCode == 401)
        #expect(failure.url?.lastPathComponent == "token")
        #expect(refresh.refreshCount == 0)
        #expect(received.values.map { $0.url?.lastPathComponent } == ["movie", "token"])
    }
}
