import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Streams through URLSession from the fixture server on 127.0.0.1.
@Suite("Streaming responses from a real server")
struct StreamingTests {
    let server: TestServer
    let group: EndpointGroup

    init() async throws {
        server = try await TestServer.shared.value
        group = EndpointGroup(baseURL: server.baseURL)
    }

    func provider(_ middlewares: [any NetworkMiddleware] = []) -> NetworkProvider {
        NetworkProvider(session: URLSession(configuration: .ephemeral), middlewares: middlewares)
    }

    func endpoint(_ path: String, _ query: [String: String] = [:]) -> Endpoint<Data> {
        group.get(path, query: query)
    }

    /// Whether the server saw the client leave the /trickle request with this id: -1 before it
    /// started, 0 while it is open, 1 once the client closed it.
    func closedFlag(_ id: String) async throws -> Int {
        struct Closed: Decodable { let closed: Int }
        let closed: Endpoint<Closed> = group.get("closed", query: ["id": id])
        return try await provider().send(closed).closed
    }

    /// Waits up to 5 s for the server to see the /trickle request with this id closed.
    func serverSeesClosed(_ id: String) async throws -> Bool {
        // Up to 15 s: the whole suite can stall for seconds on a loaded two-core machine.
        for _ in 0..<300 {
            if try await closedFlag(id) == 1 { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    @Test func ndjsonLinesArriveOneByOneBeforeTheBodyEnds() async throws {
        // Given a server writing three lines 300 ms apart, and one writing ten lines a second apart
        let whole = try await provider().stream(endpoint("lines", ["count": "3", "intervalMs": "300"]))
        let id = UUID().uuidString
        let slow = try await provider().stream(
            endpoint("lines", ["count": "10", "intervalMs": "1000", "id": id]))
        // When the first line of the slow one is read
        var slowLines = slow.lines().makeAsyncIterator()
        let first = try await slowLines.next()
        // Then the server has not finished sending (it takes 9 s more): the line came as it was written
        #expect(first == #"{"index": 0}"#)
        #expect(try await closedFlag(id) != 1)
        // And every line of a body arrives, in order
        var lines: [String] = []
        for try await line in whole.lines() { lines.append(line) }
        #expect(lines == [#"{"index": 0}"#, #"{"index": 1}"#, #"{"index": 2}"#])
        #expect(whole.response.statusCode == 200)
    }

    @Test func serverSentEventsAreParsedAsTheStandardSays() async throws {
        // Given an event stream written five bytes at a time, with a BOM, comments, CR, LF and CRLF
        let stream = try await provider().stream(endpoint("events"))
        // When
        var events: [ServerSentEvent] = []
        for try await event in stream.events() { events.append(event) }
        // Then the event without data and the one cut off at the end are not dispatched
        let retry = Duration.milliseconds(1500)
        #expect(
            events == [
                ServerSentEvent(data: "first", retry: retry),
                ServerSentEvent(event: "score", data: "line one\nline two", id: "7", retry: retry),
                ServerSentEvent(data: "no space", id: "7", retry: retry),
            ])
    }

    @Test func aRefusedStreamThrowsItsStatusWithTheBody() async throws {
        // Given
        let thrown = await error { try await provider().stream(endpoint("status/404")) }
        // Then
        let failure = try #require(
            (thrown as? NetworkError)?.statusFailure,
            "expected unacceptableStatus, got \(String(describing: thrown))")
        #expect(failure.statusCode == 404)
        #expect(String(decoding: failure.body, as: UTF8.self).contains("NotFound"))
    }

    @Test func cancellingTheReaderEndsTheTransferPromptly() async throws {
        // Given a stream that sends two pieces and then waits for the client to leave, read by a task
        let provider = provider()
        let id = UUID().uuidString
        let trickle = endpoint("trickle", ["chunks": "10", "intervalMs": "10", "stallAfter": "2", "id": id])
        let reader = Task {
            let stream = try await provider.stream(trickle)
            var received = 0
            for try await chunk in stream { received += chunk.count }
            return received
        }
        while try await closedFlag(id) != 0 { try await Task.sleep(for: .milliseconds(20)) }
        // When it is cancelled
        let clock = ContinuousClock()
        let start = clock.now
        reader.cancel()
        let thrown = await error { try await reader.value }
        // Then the reader ends with CancellationError (the bound only catches a hang: a loaded CI machine
        // stalls the whole suite for seconds), and the server sees the connection closed
        #expect(thrown is CancellationError)
        #expect(clock.now - start < .seconds(10))
        #expect(try await serverSeesClosed(id))
    }

    @Test func releasingAStreamUnreadClosesItsConnection() async throws {
        // Given a stream whose server goes quiet after two pieces and waits for the client to leave
        let id = UUID().uuidString
        do {
            let stream = try await provider().stream(
                endpoint("trickle", ["chunks": "10", "intervalMs": "10", "stallAfter": "2", "id": id]))
            var chunks = stream.makeAsyncIterator()
            _ = try await chunks.next()
            while try await closedFlag(id) != 0 { try await Task.sleep(for: .milliseconds(20)) }
        }
        // When the stream and its iterator are gone, then the server sees the connection closed
        #expect(try await serverSeesClosed(id))
    }

    @Test func aStreamThatKeepsReceivingBytesNeverHitsItsIdleTimeout() async throws {
        // Given pieces every 100 ms for 4 s, with a 3 s idle timeout: a gap between pieces would have to
        // stretch thirty times (a loaded machine under ThreadSanitizer stretched it nine) to reach it
        var trickle = endpoint("trickle", ["chunks": "40", "intervalMs": "100"])
        trickle.timeout = .seconds(3)
        let started = ContinuousClock.now
        // When
        var received = 0
        for try await chunk in try await provider().stream(trickle) { received += chunk.count }
        // Then all of it arrived, and the transfer took longer than the idle timeout
        #expect(received == 40 * 1024)
        #expect(ContinuousClock.now - started > .seconds(3))
    }

    @Test func aStreamThatGoesQuietFailsWithItsIdleTimeout() async throws {
        // Given a server that sends two pieces, then nothing
        var stalling = endpoint("trickle", ["chunks": "10", "intervalMs": "10", "stallAfter": "2"])
        stalling.timeout = .milliseconds(300)
        let stream = try await provider().stream(stalling)
        // When
        var received = 0
        let thrown = await error { for try await chunk in stream { received += chunk.count } }
        // Then
        let duration = try #require(
            (thrown as? NetworkError)?.timeout, "expected a timeout, got \(String(describing: thrown))")
        #expect(duration == .milliseconds(300))
        #expect(received == 2 * 1024)
    }

    @Test func aTotalDeadlineEndsAStreamThatIsStillReceiving() async throws {
        // Given pieces every 100 ms for 3 s, a 1 s idle timeout and a 500 ms deadline
        var trickle = endpoint("trickle", ["chunks": "30", "intervalMs": "100"])
        trickle.timeout = .seconds(1)
        trickle.deadline = .milliseconds(500)
        let stream = try await provider().stream(trickle)
        // When
        let thrown = await error { for try await _ in stream {} }
        // Then
        let duration = try #require(
            (thrown as? NetworkError)?.timeout, "expected a timeout, got \(String(describing: thrown))")
        #expect(duration == .milliseconds(500))
    }

    @Test func middlewaresSeeAStreamsRequestAndHead() async throws {
        // Given a middleware that adds a header and records the status
        let trace = Recorder<String>()
        let stream = try await provider([Tracing(name: "T", trace: trace)]).stream(endpoint("echo"))
        // When
        var body = Data()
        for try await chunk in stream { body.append(chunk) }
        // Then
        #expect(trace.values == ["T →", "T ←"])
        #expect(String(decoding: body, as: UTF8.self).contains(#""method": "GET""#))
    }

    @Test func aSecondConcurrentReaderIsRefusedInsteadOfHanging() async throws {
        // Given a stream that sends two pieces and then waits
        let id = UUID().uuidString
        let stream = try await provider().stream(
            endpoint("trickle", ["chunks": "10", "intervalMs": "10", "stallAfter": "2", "id": id]))
        var first = stream.makeAsyncIterator()
        _ = try await first.next()
        _ = try await first.next()
        let waiting = Task {
            var reader = first
            return try await reader.next()
        }
        while try await closedFlag(id) != 0 { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .milliseconds(50))
        // When a second reader asks while the first waits
        var second = stream.makeAsyncIterator()
        let thrown = await error { try await second.next() }
        // Then it is refused at once; the first is still waiting, and ends when cancelled
        #expect(thrown as? ResponseStreamError == .concurrentReads)
        waiting.cancel()
        #expect(await error { try await waiting.value } is CancellationError)
    }

    @Test(.timeLimit(.minutes(2)))
    func streamsCancelledAroundTheirEndNeverCrashAndAlwaysAnswer() async throws {
        // Given short streams whose readers are cancelled at random moments around the body's end: the
        // moment at which FoundationNetworking's cancel() can race the task's completion
        let provider = provider()
        let lines = endpoint("lines", ["count": "1"])
        var outcomes: [String] = []
        for round in 0..<150 {
            let reader = Task {
                var count = 0
                for try await _ in try await provider.stream(lines).lines() { count += 1 }
                return count
            }
            try await Task.sleep(for: .microseconds(round % 15 * 200))
            // When
            reader.cancel()
            // Then every reader is answered: with its line or with CancellationError
            do {
                outcomes.append(try await reader.value == 1 ? "line" : "short")
            } catch is CancellationError {
                outcomes.append("cancelled")
            }
        }
        #expect(outcomes.count == 150)
        #expect(!outcomes.contains("short"))
    }

    @Test func aStubSessionStreamsItsBodyAsOneChunk() async throws {
        // Given
        let provider = NetworkProvider(session: .status(200, body: Data("a\nb\n".utf8)))
        // When
        var lines: [String] = []
        for try await line in try await provider.stream(Endpoint<Data>(baseURL: exampleURL)).lines() {
            lines.append(line)
        }
        // Then
        #expect(lines == ["a", "b"])
    }
}
