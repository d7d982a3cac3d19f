import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The partial file of a download, on the real file system: chunks handed over land in order on the
/// file's own queue, and a file swapped in under its name is never written into.
@Suite("A download's partial file")
struct ProviderWrittenFileTests {
    let folder: URL
    /// Removes the folder, and what the tests left in it, when the suite's instance is released.
    private let temporary: TemporaryFolder
    let destination: URL

    init() throws {
        temporary = try TemporaryFolder.create("part")
        folder = temporary.url
        destination = folder.appendingPathComponent("body.bin")
    }

    func head(_ status: Int = 200, _ headers: [String: String] = [:]) throws -> HTTPURLResponse {
        try #require(
            HTTPURLResponse(
                url: destination, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers))
    }

    @Test func chunksHandedOverAreWrittenInOrderOnceSettled() async throws {
        // Given an open file and 300 chunks of different bytes, more than one batch
        let file = ProviderWrittenFile(destination: destination)
        try file.open(try head())
        let chunks = (0..<300).map { Data(repeating: UInt8($0 % 251), count: 4_099) }
        // When they are handed over and the writes finish
        for chunk in chunks { try file.write(chunk) }
        try await file.finishWriting()
        try file.move(to: destination)
        // Then the file holds them in order
        #expect(try Data(contentsOf: destination) == chunks.reduce(Data(), +))
    }

    @Test func aFullDiskFailsTheWritesWithAFileError() async throws {
        // Given a partial file whose writes fail as on a full disk
        let file = ProviderWrittenFile(destination: destination) { _, _ in .file(POSIXError(.ENOSPC)) }
        try file.open(try head())
        // When a megabyte is handed over and the writes finish
        try file.write(Data(count: 1 << 20))
        let thrown = await #expect(throws: NetworkError.self) { try await file.finishWriting() }
        // Then the failure is the file's, with the system's reason, and later chunks are refused
        guard case .file(let reason) = thrown, let posix = reason as? POSIXError else {
            Issue.record("expected a file error with a POSIX reason, got \(String(describing: thrown))")
            return
        }
        #expect(posix.code == .ENOSPC)
        #expect(throws: NetworkError.self) { try file.write(Data(count: 1)) }
    }

    @Test func theNextAttemptAsksForTheRestOnlyOnceEveryByteIsWritten() async throws {
        // Given 100 KB handed over (less than one write batch) and the transfer closed
        let file = ProviderWrittenFile(destination: destination)
        try file.open(
            try head(200, ["Accept-Ranges": "bytes", "ETag": "\"v1\"", "Content-Length": "300000"]))
        try file.write(Data(count: 100_000))
        file.close()
        // When the next attempt begins
        _ = await file.beginAttempt()
        // Then its request asks for the bytes after all 100 KB
        let request = file.request(resuming: URLRequest(url: destination))
        #expect(request.value(forHTTPHeaderField: "Range") == "bytes=100000-")
    }

    @Test func aPartialFileReplacedBetweenAttemptsIsNotResumedInto() async throws {
        // Given 1,000 bytes written, then the partial file replaced by another file of the same size
        let file = ProviderWrittenFile(destination: destination)
        try file.open(try head(200, ["Accept-Ranges": "bytes", "ETag": "\"v1\"", "Content-Length": "2000"]))
        try file.write(Data(repeating: 1, count: 1_000))
        try await file.finishWriting()
        let other = folder.appendingPathComponent("other.bin")
        try Data(repeating: 7, count: 1_000).write(to: other)
        try #require(rename(other.path, file.partURL.path) == 0)
        // When the rest arrives as a 206, Then it is refused and the next attempt starts over
        #expect(throws: NetworkError.self) {
            try file.open(try head(206, ["Content-Range": "bytes 1000-1999/2000", "ETag": "\"v1\""]))
        }
        #expect(file.takeRestart())
        #expect(try Data(contentsOf: file.partURL) == Data(repeating: 7, count: 1_000))
    }

    @Test func aFIFOSwappedInBeforeAResumeIsRefusedWithoutBlocking() async throws {
        // Given 1,000 bytes written, then a FIFO (with no reader) put where the partial file was
        let file = ProviderWrittenFile(destination: destination)
        try file.open(try head(200, ["Accept-Ranges": "bytes", "ETag": "\"v1\"", "Content-Length": "2000"]))
        try file.write(Data(repeating: 1, count: 1_000))
        try await file.finishWriting()
        try FileManager.default.removeItem(at: file.partURL)
        try #require(mkfifo(file.partURL.path, 0o600) == 0)
        // When the rest arrives as a 206, Then opening refuses it at once and the next attempt starts over
        #expect(throws: NetworkError.self) {
            try file.open(try head(206, ["Content-Range": "bytes 1000-1999/2000", "ETag": "\"v1\""]))
        }
        #expect(file.takeRestart())
    }

    @Test func aFirstAnswerOf206FromByteZeroStartsTheFile() async throws {
        // Given a new download answered with a 206 for the whole body (as some servers do)
        let file = ProviderWrittenFile(destination: destination)
        // When
        try file.open(try head(206, ["Content-Range": "bytes 0-999/1000"]))
        try file.write(Data(repeating: 3, count: 1_000))
        try await file.finishWriting()
        try file.move(to: destination)
        // Then the body is the file
        #expect(try file.ending() == .complete)
        #expect(try Data(contentsOf: destination) == Data(repeating: 3, count: 1_000))
    }

    @Test func discardingLeavesAFileSwappedInUnderThePartialName() async throws {
        // Given a partial file replaced by another file
        let file = ProviderWrittenFile(destination: destination)
        try file.open(try head())
        try await file.finishWriting()
        let other = folder.appendingPathComponent("other.bin")
        try Data("mine".utf8).write(to: other)
        try #require(rename(other.path, file.partURL.path) == 0)
        // When the download is discarded
        await file.discard()
        // Then the file that is not the download's stays
        #expect(try Data(contentsOf: file.partURL) == Data("mine".utf8))
    }

    @Test func aResumedAttemptDropsBytesPastWhatWasCounted() async throws {
        // Given 1,000 counted bytes and 24 more left in the file by a write that failed halfway
        let file = ProviderWrittenFile(destination: destination)
        try file.open(try head(200, ["Accept-Ranges": "bytes", "ETag": "\"v1\"", "Content-Length": "2000"]))
        try file.write(Data(repeating: 1, count: 1_000))
        try await file.finishWriting()
        let handle = try FileHandle(forWritingTo: file.partURL)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 9, count: 24))
        try handle.close()
        // When the rest is asked for and arrives as a 206 from byte 1,000
        _ = file.request(resuming: URLRequest(url: destination))
        try file.open(try head(206, ["Content-Range": "bytes 1000-1999/2000", "ETag": "\"v1\""]))
        try file.write(Data(repeating: 2, count: 1_000))
        try await file.finishWriting()
        try file.move(to: destination)
        // Then the file is the counted bytes and the rest, nothing between
        #expect(
            try Data(contentsOf: destination) == Data(repeating: 1, count: 1_000)
                + Data(repeating: 2, count: 1_000))
    }
}
