import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A session that returns bodies whole (a stub, a recording, an app's own) feeds the same sink as a
/// `URLSession` transfer, and a download's windows run over it as over any transport.
@Suite("A session that returns bodies whole: the transport contract")
struct WholeBodySessionContractTests {
    private let temporary: TemporaryFolder

    init() throws {
        temporary = try TemporaryFolder.create("whole-body")
    }

    @Test func aStreamYieldsAWholeBodyLargerThanItsBufferWithoutFallingBehind() async throws {
        // Given a session that returns a 200 KiB body whole, and a stream buffer of 64 KiB
        let body = Data((0..<(200 << 10)).map { UInt8(truncatingIfNeeded: $0) })
        var configuration = NetworkProvider.Configuration()
        configuration.streamBufferLimit = 64 << 10
        let provider = NetworkProvider(
            session: StubSession.status(200, body: body), configuration: configuration)
        // When the stream is read to its end
        var read = Data()
        for try await chunk in try await provider.stream(Endpoint<Data>(baseURL: exampleURL, path: "feed")) {
            read.append(chunk)
        }
        // Then it has every byte: no sender can outrun a reader of a body already in memory
        #expect(read.count == body.count)
        #expect(read == body)
    }

    @Test func theWindowsLoopRunsOverASessionThatReturnsBodiesWhole() async throws {
        // Given a session that serves ranges of a 300,000-byte file, and a download in 100,000-byte windows
        // over it (a provider asks such a session for no windows: its bodies come whole anyway; the loop
        // itself knows no transport)
        let file = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let session = StubSession { request in
            let range = try #require(request.value(forHTTPHeaderField: "Range"))
            let bounds = range.dropFirst("bytes=".count).split(separator: "-").compactMap { Int($0) }
            let (first, last) = (
                bounds[0], min(bounds.count > 1 ? bounds[1] : file.count - 1, file.count - 1)
            )
            return (
                file.subdata(in: first..<(last + 1)),
                try StubSession.makeResponse(
                    for: request, status: 206,
                    headers: ["ETag": "\"v1\"", "Content-Range": "bytes \(first)-\(last)/\(file.count)"])
            )
        }
        let transport = SessionTransport(
            session: session,
            calls: WholeBodyCalls(coalescer: nil, clock: ContinuousClock(), deadlines: .shared),
            seams: NetworkProvider.Seams())
        let destination = temporary.url.appendingPathComponent("file.bin")
        let download = ProviderWrittenDownload(
            destination: destination, writeChunk: nil, transport: transport,
            rules: AttemptRules(endpoint: "file", accepts: DownloadStatusCodes(200...299), limit: 1_000),
            window: 100_000, progress: nil)
        let log = RequestMetricsLog()
        let record = AttemptRecord(log: log, number: log.begin(bytesSent: 0).attempt)
        // When one attempt runs
        let (_, head) = try await download.attempt(URLRequest(url: exampleURL), record: record)
        try await download.finishWriting()
        _ = try download.place(at: destination)
        // Then it asked for three windows, one after another, and the file is whole
        #expect(
            session.requests.map { $0.headers["Range"] }
                == ["bytes=0-99999", "bytes=100000-199999", "bytes=200000-299999"])
        #expect(head.statusCode == 206)
        #expect(log.attempts.first?.bytesReceived == 300_000)
        #expect(try Data(contentsOf: destination) == file)
    }

    @Test func aStreamsBodyOverItsLimitFailsTheStreamAsTooLarge() async throws {
        // Given a session that returns 2 KB whole, and an endpoint that accepts at most 1 KB
        var endpoint = Endpoint<Data>(baseURL: exampleURL, path: "feed")
        endpoint.maximumResponseSize = 1_000
        let provider = NetworkProvider(session: StubSession.status(200, body: Data(count: 2_000)))
        // When
        let thrown = await #expect(throws: NetworkError.self) { _ = try await provider.stream(endpoint) }
        // Then the stream is refused before the caller has it, as a whole body would be
        #expect(thrown?.sizeLimit == 1_000)
    }

    @Test(.timeLimit(.minutes(1)))
    func aCallerThatLeavesIsAnsweredAtOnceThoughItsSessionIgnoresCancellation() async throws {
        // Given a session that ignores cancellation and answers only when the test lets it
        let waiting = Locked<CheckedContinuation<Void, Never>?>(nil)
        let session = StubSession { request in
            await withCheckedContinuation { continuation in waiting.withLock { $0 = continuation } }
            return (Data("late".utf8), try StubSession.makeResponse(for: request, status: 200))
        }
        let provider = NetworkProvider(session: session)
        let file = temporary.url.appendingPathComponent("late.bin")
        let download = Task {
            try await provider.download(Endpoint<Data>(baseURL: exampleURL, path: "late"), to: file)
        }
        #expect(await eventually { waiting.withLock { $0 != nil } })
        // When the caller leaves
        download.cancel()
        // Then it is told so at once, not when the session answers
        await #expect(throws: CancellationError.self) { _ = try await download.value }
        waiting.withLock { $0 }?.resume()
    }

    @Test(.timeLimit(.minutes(1)), arguments: ["stream", "download"])
    func identicalGETsThatAreNotWholeBodiesNeverShareOneCallWhenCoalescing(kind: String) async throws {
        // Given a coalescing provider over a session that answers once both requests have arrived (or
        // after 5 s, if only one ever does)
        let arrived = Locked(0)
        let session = StubSession { request in
            arrived.withLock { $0 += 1 }
            _ = await eventually(within: .seconds(5)) { arrived.withLock { $0 } >= 2 }
            return (Data("body".utf8), try StubSession.makeResponse(for: request, status: 200))
        }
        let provider = NetworkProvider(
            session: session, configuration: NetworkProvider.Configuration(coalescesIdenticalGETs: true))
        let endpoint = Endpoint<Data>(baseURL: exampleURL, path: "feed")
        let folder = temporary.url
        // When two identical GETs run at once
        let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
            for index in 0..<2 {
                group.addTask {
                    if kind == "stream" {
                        var body = Data()
                        for try await chunk in try await provider.stream(endpoint) { body.append(chunk) }
                        return body
                    }
                    let file = folder.appendingPathComponent("copy-\(index).bin")
                    return try Data(contentsOf: try await provider.download(endpoint, to: file).url)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Then each asked for its own body and got all of it
        #expect(session.requests.count == 2)
        #expect(bodies == [Data("body".utf8), Data("body".utf8)])
    }
}
