import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Metrics and events")
struct ObservabilityTests {
    let endpoint = EndpointGroup(
        baseURL: exampleURL, queryItems: [URLQueryItem(name: "serviceKey", value: "s3cret")]
    ).get("movie", as: Movie.self)

    @Test func theCallerSeesEveryAttemptsStatusAndTiming() async throws {
        // Given a server that fails once with 503, and a retry middleware
        let provider = NetworkProvider(
            session: .sequence([.status(503), .json(#"{"title":"Wonka","year":2023}"#)]),
            middlewares: [RetryMiddleware(sleep: { _ in })])
        // When
        let response = try await provider.response(for: endpoint)
        // Then
        #expect(response.metrics.map(\.attempt) == [1, 2])
        #expect(response.metrics.map(\.statusCode) == [503, 200])
        #expect(response.metrics.map(\.isRetry) == [false, true])
        #expect(response.metrics.allSatisfy { $0.duration != nil })
        #expect(response.metrics[1].bytesReceived == Int64(response.data.count))
    }

    @Test func eventsFollowARequestFromStartThroughRetryToFinish() async throws {
        // Given
        let events = Recorder<NetworkEvent>()
        let provider = NetworkProvider(
            session: .sequence([.status(503), .json(#"{"title":"Wonka","year":2023}"#)]),
            middlewares: [RetryMiddleware(sleep: { _ in })],
            configuration: .init(onEvent: { events.append($0) }))
        // When
        _ = try await provider.send(endpoint)
        // Then
        let kinds = events.values.map { "\($0)".split(separator: " ").first.map(String.init) ?? "" }
        #expect(kinds == ["started", "retried", "finished"])
        let finished = try #require(events.values.last)
        #expect(finished.summary.attempts.count == 2)
        #expect(
            "\(finished)".hasPrefix(
                "finished GET movie https://api.example.com/v1/movie?serviceKey=REDACTED (200 in "))
        #expect(events.values.allSatisfy { !"\($0)".contains("s3cret") })
    }

    @Test func aFailureIsReportedOnceWithTheErrorTheCallerGets() async throws {
        // Given
        let events = Recorder<NetworkEvent>()
        let provider = NetworkProvider(
            session: .status(404), configuration: .init(onEvent: { events.append($0) }))
        // When
        _ = await error { try await provider.send(endpoint) }
        // Then
        #expect(events.values.count == 2)
        guard case .failed(let summary, let failure) = events.values.last else {
            Issue.record("expected a failure event, got \(events.values)")
            return
        }
        #expect(summary.metrics?.statusCode == 404)
        try #require(
            (failure as? NetworkError)?.statusFailure != nil, "expected the caller's error, got \(failure)")
    }

    @Test func aMiddlewareReadsTheAttemptItsNextCallMade() async throws {
        // Given a middleware that notes the status of the attempt below it
        struct Noting: NetworkMiddleware {
            let seen: Recorder<Int?>
            func intercept(
                _ request: URLRequest, context: RequestContext, next: Next
            ) async throws -> (Data, HTTPURLResponse) {
                let answer = try await next(request)
                seen.append(context.metrics.last?.statusCode)
                return answer
            }
        }
        let seen = Recorder<Int?>()
        let provider = NetworkProvider(session: .json("{}", status: 202), middlewares: [Noting(seen: seen)])
        // When
        _ = try await provider.send(Endpoint<EmptyResponse>(baseURL: exampleURL, path: "ping"))
        // Then
        #expect(seen.values == [202])
    }

    @Test func aCoalescedAttemptSaysSo() async throws {
        // Given two identical GETs, the second joining the first's held call
        let gate = AsyncGate()
        let session = StubSession { request in
            await gate.enter()
            return (
                Data(#"{"title":"Wonka","year":2023}"#.utf8),
                try StubSession.makeResponse(for: request, status: 200)
            )
        }
        let provider = NetworkProvider(session: session, configuration: .init(coalescesIdenticalGETs: true))
        let first = Task { try await provider.response(for: endpoint) }
        await gate.waitUntilEntered()
        let second = Task { try await provider.response(for: endpoint) }
        while provider.coalescedWaiters < 2 { try await Task.sleep(for: .milliseconds(1)) }
        // When the call answers
        gate.open()
        // Then only the one that joined is marked
        #expect(try await first.value.metrics.map(\.isCoalesced) == [false])
        #expect(try await second.value.metrics.map(\.isCoalesced) == [true])
    }
}

@Suite("Metrics of transfers from a real server")
struct TransferMetricsTests {
    @Test func aDownloadThatFailsCountsTheBytesItReceived() async throws {
        // Given a server that drops the connection after 50 KB of 250 KB, and no resume
        let server = try await TestServer.shared.value
        let events = Recorder<NetworkEvent>()
        let provider = NetworkProvider(
            session: URLSession(configuration: .ephemeral),
            configuration: .init(onEvent: { events.append($0) }))
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("dropped-\(UUID())")
        let dropping: Endpoint<Data> = EndpointGroup(baseURL: server.baseURL).get(
            "ranged", query: ["bytes": "250000", "dropAfter": "50000", "id": UUID().uuidString])
        // When
        _ = try? await provider.download(dropping, to: destination, resumeAttempts: 0)
        // Then the failed attempt says how much arrived before the drop
        guard case .failed(let summary, _) = events.values.last else {
            Issue.record("expected a failed event, got \(String(describing: events.values.last))")
            return
        }
        #expect(summary.metrics?.bytesReceived == 50_000)
    }

    @Test func aDownloadsMetricsHaveItsResponseStartAndBytes() async throws {
        // Given a 100 KB download asked for in windows of 64 KiB
        let server = try await TestServer.shared.value
        let events = Recorder<NetworkEvent>()
        var configuration = NetworkProvider.Configuration(onEvent: { events.append($0) })
        configuration.downloadWindow = 65_536
        let provider = NetworkProvider(
            session: URLSession(configuration: .ephemeral), configuration: configuration)
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID())")
        defer { try? FileManager.default.removeItem(at: destination) }
        let large: Endpoint<Data> = EndpointGroup(baseURL: server.baseURL).get(
            "large", query: ["bytes": "100000"])
        // When
        _ = try await provider.download(large, to: destination)
        // Then the attempt counts the bytes of both windows, and the last answer's status
        let metrics = try #require(events.values.last?.summary.metrics)
        #expect(metrics.bytesReceived == 100_000)
        #expect(metrics.statusCode == 206)
        let responseStart = try #require(metrics.responseStart)
        let end = try #require(metrics.end)
        #expect(metrics.start <= responseStart && responseStart <= end)
    }
}
