import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads through URLSession from the fixture server on 127.0.0.1, into a temporary folder.
@Suite("Downloads to a file from a real server")
struct DownloadTests {
    let server: TestServer
    let group: EndpointGroup
    let folder: URL
    /// Removes the folder, and what the tests left in it, when the suite's instance is released.
    private let temporary: TemporaryFolder

    init() async throws {
        server = try await TestServer.shared.value
        group = EndpointGroup(baseURL: server.baseURL)
        temporary = try TemporaryFolder.create("downloads")
        folder = temporary.url
    }

    func provider(_ middlewares: [any NetworkMiddleware] = []) -> NetworkProvider {
        NetworkProvider(session: URLSession(configuration: .ephemeral), middlewares: middlewares)
    }

    func ranged(bytes: Int, dropAfter: Int? = nil, badRange: Bool = false) -> Endpoint<Data> {
        var query = ["bytes": "\(bytes)", "id": UUID().uuidString]
        if let dropAfter { query["dropAfter"] = "\(dropAfter)" }
        if badRange { query["badRange"] = "1" }
        return group.get("ranged", query: query)
    }

    /// The fixture server's body: byte i is i % 251 (built from whole blocks: a per-byte loop in a debug
    /// build would hold a cooperative thread for a second and starve the other tests).
    func expectedBody(_ count: Int) -> Data {
        patterned(count, period: 251)
    }

    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".part") }
    }

    @Test func aDownloadWritesTheBodyToTheDestinationAndReportsProgress() async throws {
        // Given
        let destination = folder.appendingPathComponent("movie.bin")
        let reports = Recorder<TransferProgress>()
        // When
        let file = try await provider().download(ranged(bytes: 600_000), to: destination) {
            reports.append($0)
        }
        // Then
        #expect(try Data(contentsOf: destination) == expectedBody(600_000))
        #expect(file.byteCount == 600_000)
        #expect(file.resumeCount == 0)
        let completed = reports.values.map(\.completedBytes)
        #expect(completed == completed.sorted())
        #expect(reports.values.last == TransferProgress(completedBytes: 600_000, expectedBytes: 600_000))
        #expect(try leftovers().isEmpty)
    }

    @Test func aDroppedConnectionResumesWithARangeRequestForTheMissingBytes() async throws {
        // Given a server that closes the first connection after 200 KB of 600 KB
        let destination = folder.appendingPathComponent("resumed.bin")
        // When
        let file = try await provider().download(
            ranged(bytes: 600_000, dropAfter: 200_000), to: destination)
        // Then the second attempt asked for the rest (206) and the file is whole
        #expect(file.resumeCount == 1)
        #expect(file.response.statusCode == 206)
        #expect(try Data(contentsOf: destination) == expectedBody(600_000))
    }

    @Test func aMiddlewaresRetryOfADroppedDownloadAsksOnlyForTheMissingBytes() async throws {
        // Given a middleware that sends a failed request once more, and no resume attempts of the provider's
        let destination = folder.appendingPathComponent("retried.bin")
        let provider = provider([RetryOnceMiddleware()])
        // When the server drops the first connection after 200 KB of 600 KB (less than one write batch,
        // so the retry starts while those bytes may still wait for the writer)
        let file = try await provider.download(
            ranged(bytes: 600_000, dropAfter: 200_000), to: destination, resumeAttempts: 0)
        // Then the retry asked for the rest after every earlier byte was written, and the file is whole
        #expect(file.response.statusCode == 206)
        #expect(try Data(contentsOf: destination) == expectedBody(600_000))
    }

    @Test func aResumeAnsweredWithTheWrongBytesStartsTheFileOver() async throws {
        // Given a server that drops the first connection, then answers the range request with a 206 for
        // other bytes than those asked for
        let destination = folder.appendingPathComponent("restarted.bin")
        // When
        let file = try await provider().download(
            ranged(bytes: 600_000, dropAfter: 200_000, badRange: true), to: destination)
        // Then the third attempt fetched the whole file again, and the file is right
        #expect(file.resumeCount == 2)
        #expect(file.response.statusCode == 200)
        #expect(try Data(contentsOf: destination) == expectedBody(600_000))
    }

    @Test func withoutResumeAttemptsADroppedConnectionFailsAndLeavesNoPartialFile() async throws {
        // Given
        let destination = folder.appendingPathComponent("dropped.bin")
        // When
        let thrown = await error {
            try await provider().download(
                ranged(bytes: 600_000, dropAfter: 200_000), to: destination, resumeAttempts: 0)
        }
        // Then
        #expect(thrown is NetworkError)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(try leftovers().isEmpty)
    }

    @Test func aRefusedStatusThrowsWithItsBodyAndWritesNoFile() async throws {
        // Given
        let destination = folder.appendingPathComponent("missing.bin")
        let missing: Endpoint<Data> = group.get("status/404")
        // When
        let thrown = await error { try await provider().download(missing, to: destination) }
        // Then
        let failure = try #require(
            (thrown as? NetworkError)?.statusFailure,
            "expected unacceptableStatus, got \(String(describing: thrown))")
        #expect(String(decoding: failure.body, as: UTF8.self).contains("NotFound"))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(try leftovers().isEmpty)
    }

    @Test func aDownloadThatKeepsReceivingOutlastsItsIdleTimeout() async throws {
        // Given pieces every 100 ms for 2.5 s and a 1 s idle timeout
        var trickle: Endpoint<Data> = group.get("trickle", query: ["chunks": "25", "intervalMs": "100"])
        trickle.timeout = .seconds(1)
        let destination = folder.appendingPathComponent("trickle.bin")
        // When
        let file = try await provider().download(trickle, to: destination)
        // Then
        #expect(file.byteCount == 25 * 1024)
    }

    @Test func cancellingADownloadThrowsCancellationErrorAndRemovesThePartialFile() async throws {
        // Given a download the server stalls after two pieces
        let destination = folder.appendingPathComponent("cancelled.bin")
        let stalling: Endpoint<Data> = group.get(
            "trickle",
            query: ["chunks": "10", "intervalMs": "10", "stallAfter": "2", "id": UUID().uuidString])
        let received = Recorder<TransferProgress>()
        let provider = provider()
        let download = Task { try await provider.download(stalling, to: destination) { received.append($0) } }
        while received.values.last?.completedBytes ?? 0 < 2048 {
            try await Task.sleep(for: .milliseconds(10))
        }
        // When
        download.cancel()
        // Then
        #expect(await error { try await download.value } is CancellationError)
        #expect(try leftovers().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test func aMissingDestinationFolderIsAFileError() async throws {
        // Given
        let destination = folder.appendingPathComponent("no-such-folder/movie.bin")
        // When
        let thrown = await error { try await provider().download(ranged(bytes: 1000), to: destination) }
        // Then
        try #require(
            (thrown as? NetworkError)?.fileError != nil,
            "expected a file error, got \(String(describing: thrown))")
    }

    @Test func aFullDiskAtTheEndOfADownloadIsAFileErrorNotADroppedConnection() async throws {
        // Given a provider whose file writes fail as on a full disk, and a 100 KB body (less than one
        // write batch, so every byte is written after the transfer has ended)
        var seams = NetworkProvider.Seams()
        seams.downloadWrites = { _, _ in .file(POSIXError(.ENOSPC)) }
        let provider = NetworkProvider(
            session: URLSession(configuration: .ephemeral), middlewares: [], configuration: .init(),
            seams: seams)
        let destination = folder.appendingPathComponent("full.bin")
        // When
        let thrown = await error { try await provider.download(ranged(bytes: 100_000), to: destination) }
        // Then the disk's error is reported, without resuming into the same full disk
        let reason = try #require(
            (thrown as? NetworkError)?.fileError, "expected a file error, got \(String(describing: thrown))")
        #expect((reason as? POSIXError)?.code == .ENOSPC)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(try leftovers().isEmpty)
    }

    @Test func aDownloadReplacesAnExistingFile() async throws {
        // Given
        let destination = folder.appendingPathComponent("old.bin")
        try Data("old".utf8).write(to: destination)
        // When
        _ = try await provider().download(ranged(bytes: 1000), to: destination)
        // Then
        #expect(try Data(contentsOf: destination) == expectedBody(1000))
    }

    @Test func aStubSessionDownloadWritesItsBody() async throws {
        // Given
        let destination = folder.appendingPathComponent("stub.bin")
        let provider = NetworkProvider(session: .status(200, body: Data("poster".utf8)))
        // When
        let file = try await provider.download(Endpoint<Data>(baseURL: exampleURL), to: destination)
        // Then
        #expect(try Data(contentsOf: destination) == Data("poster".utf8))
        #expect(file.byteCount == 6)
    }
}

/// Sends a request that failed once more.
private struct RetryOnceMiddleware: NetworkMiddleware {
    func intercept(
        _ request: URLRequest, context: RequestContext, next: Next
    ) async throws -> (Data, HTTPURLResponse) {
        do {
            return try await next(request)
        } catch {
            return try await next(request)
        }
    }
}

@Suite("Content-Range, read as hostile input")
struct ContentRangeTests {
    @Test func aWellFormedRangeIsRead() {
        #expect(ContentRange("bytes 100-199/1000") == ContentRange(first: 100, last: 199, total: 1000))
        #expect(ContentRange("bytes 0-0/*")?.total == nil)
    }

    @Test func malformedOrOverflowingRangesAreRejected() {
        for header in [
            "bytes 200-100/1000", "bytes 0-999/999", "bytes -1-5/10", "bytes 1-99999999999999999999/*",
            "items 0-1/2", "bytes 0-1", "bytes +1-2/3", "bytes 1-2/3/4", "", "bytes ",
            // The byte after the last would not be a number
            "bytes 0-9223372036854775807/*",
        ] {
            #expect(ContentRange(header) == nil, "\(header)")
        }
    }

    @Test(
        arguments: [
            ("bytes */50000", Int64(50_000)), ("bytes */0", 0), ("bytes 0-9/10", nil), ("bytes */", nil),
            ("bytes */-1", nil), ("bytes */99999999999999999999", nil), ("bytes */5 ", nil),
        ] as [(String, Int64?)])
    func anUnsatisfiedRangeSaysItsLengthOnlyInItsOwnForm(header: String, length: Int64?) {
        #expect(ContentRange.unsatisfiedLength(header) == length)
    }
}
