import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A download's partial file answered in windows, on the real file system: which bytes each request
/// asks for, what a transfer's end amounts to, and when the next window waits for the disk.
@Suite("A download's partial file, in windows")
struct ProviderWrittenFileWindowTests {
    let folder: URL
    /// Removes the folder, and what the tests left in it, when the suite's instance is released.
    private let temporary: TemporaryFolder
    let destination: URL
    let request: URLRequest

    init() throws {
        temporary = try TemporaryFolder.create("window")
        folder = temporary.url
        destination = folder.appendingPathComponent("body.bin")
        request = URLRequest(url: destination)
    }

    func partial(_ range: String, etag: String? = "\"v1\"") throws -> HTTPURLResponse {
        var headers = ["Content-Range": range]
        headers["ETag"] = etag
        return try #require(
            HTTPURLResponse(url: destination, statusCode: 206, httpVersion: "HTTP/1.1", headerFields: headers)
        )
    }

    @Test func theFirstRequestAsksForTheFirstWindowWithoutAValidator() {
        // Given a download not begun
        let file = ProviderWrittenFile(destination: destination)
        // When
        let first = file.request(resuming: request, window: 100_000)
        // Then
        #expect(first.value(forHTTPHeaderField: "Range") == "bytes=0-99999")
        #expect(first.value(forHTTPHeaderField: "If-Range") == nil)
        #expect(file.askedForFirstWindow)
    }

    @Test func aResumeAnsweredShortOfItsTotalIsCutShortNotAWindowDone() throws {
        // Given a download of 300 KB, 100 KB received, resumed without a window
        let file = ProviderWrittenFile(destination: destination)
        try file.open(
            try #require(
                HTTPURLResponse(
                    url: destination, statusCode: 200, httpVersion: "HTTP/1.1",
                    headerFields: ["Content-Length": "300000", "ETag": "\"v1\"", "Accept-Ranges": "bytes"])))
        try file.write(Data(count: 100_000))
        file.close()
        let resumed = file.request(resuming: request)
        #expect(resumed.value(forHTTPHeaderField: "Range") == "bytes=100000-")
        // When the answer continues the file but its range ends 100 KB later, short of the total
        try file.open(try partial("bytes 100000-199999/300000"))
        try file.write(Data(count: 100_000))
        // Then it is a body cut short (resumed, and counted), not a window to go on from
        #expect(try file.ending() == .cutShort)
    }

    @Test func theNextWindowStartsAfterTheBytesReceivedEvenBeforeTheyAreWritten() throws {
        // Given a first window of 100 KB received, and not yet written (less than one write batch)
        let file = ProviderWrittenFile(destination: destination)
        _ = file.request(resuming: request, window: 100_000)
        try file.open(try partial("bytes 0-99999/300000"))
        try file.write(Data(count: 100_000))
        // When the transfer ends
        let ending = try file.ending()
        let next = file.request(resuming: request, window: 100_000)
        // Then the window is done and the next asks for the following bytes of the same version
        #expect(ending == .windowDone)
        #expect(next.value(forHTTPHeaderField: "Range") == "bytes=100000-199999")
        #expect(next.value(forHTTPHeaderField: "If-Range") == "\"v1\"")
    }

    @Test func aTransferEndingShortOfItsWindowIsCutShort() throws {
        // Given a 100 KB window of which 50 KB arrived
        let file = ProviderWrittenFile(destination: destination)
        _ = file.request(resuming: request, window: 100_000)
        try file.open(try partial("bytes 0-99999/300000"))
        try file.write(Data(count: 50_000))
        // When the transfer ends without an error, Then it counts as a dropped connection
        #expect(try file.ending() == .cutShort)
    }

    @Test func theLastWindowCompletesTheBody() async throws {
        // Given three windows of a 250 KB body, each answered and received in turn
        let file = ProviderWrittenFile(destination: destination)
        var endings: [ProviderWrittenFile.TransferEnding] = []
        for (index, range) in [
            "bytes 0-99999/250000", "bytes 100000-199999/250000", "bytes 200000-249999/250000",
        ]
        .enumerated() {
            _ = file.request(resuming: request, window: 100_000)
            try file.open(try partial(range))
            try file.write(Data(repeating: UInt8(index), count: index == 2 ? 50_000 : 100_000))
            endings.append(try file.ending())
        }
        // When the writes finish
        try await file.finishWriting()
        try file.move(to: destination)
        // Then the file is the three windows in order
        #expect(endings == [.windowDone, .windowDone, .complete])
        let expected =
            Data(repeating: 0, count: 100_000) + Data(repeating: 1, count: 100_000)
            + Data(repeating: 2, count: 50_000)
        #expect(try Data(contentsOf: destination) == expected)
    }

    @Test func bytesPastTheEndOfAnAnswersRangeAreRefused() async throws {
        // Given an answer for bytes 0-99 of 300
        let file = ProviderWrittenFile(destination: destination)
        _ = file.request(resuming: request, window: 100)
        try file.open(try partial("bytes 0-99/300"))
        // When 150 bytes arrive
        #expect(throws: NetworkError.self) { try file.write(Data(repeating: 5, count: 150)) }
        // Then only the 100 of the range were kept, and the next request asks for what follows them
        #expect(file.progress.completedBytes == 100)
        let next = file.request(resuming: request, window: 100)
        #expect(next.value(forHTTPHeaderField: "Range") == "bytes=100-199")
    }

    @Test func aWindowAnsweredWithoutTheTotalStartsOverInOneRequest() async throws {
        // Given a first window whose answer does not say the body's total, so a shorter answer could be
        // the end of the body or not
        let file = ProviderWrittenFile(destination: destination)
        _ = file.request(resuming: request, window: 100_000)
        try file.open(try partial("bytes 0-49999/*"))
        try file.write(Data(count: 50_000))
        let ending = try file.ending()
        // When the download starts over
        await file.startOver()
        let next = file.request(resuming: request, window: 100_000)
        // Then the bytes and the partial file are gone, and the whole body is asked for, without a range
        #expect(ending == .totalUnknown)
        #expect(next.value(forHTTPHeaderField: "Range") == nil)
        #expect(file.progress.completedBytes == 0)
        #expect(!FileManager.default.fileExists(atPath: file.partURL.path))
    }

    @Test func aTotalOnceAnnouncedIsKeptWhenALaterAnswerLeavesItOut() throws {
        // Given a first window of a 300-byte body, closed (as after a dropped connection)
        let file = ProviderWrittenFile(destination: destination)
        _ = file.request(resuming: request, window: 100)
        try file.open(try partial("bytes 0-99/300"))
        try file.write(Data(count: 100))
        file.close()
        // When the next window's answer says `/*`
        _ = file.request(resuming: request, window: 100)
        try file.open(try partial("bytes 100-199/*"))
        try file.write(Data(count: 100))
        // Then the body is still known to be 300 bytes: one more window, not a start over
        #expect(try file.ending() == .windowDone)
        #expect(file.progress.expectedBytes == 300)
    }

    @Test func aWriteThatFailedIsNotContinuedAfter() async throws {
        // Given a first window of 600 KB written, then, in the second, a write that puts half its bytes
        // on the disk and fails
        let disk = HalfFailingDisk(failingAfter: 600_000)
        let file = ProviderWrittenFile(destination: destination, writeChunk: disk.write)
        _ = file.request(resuming: request, window: 600_000)
        try file.open(try partial("bytes 0-599999/1200000"))
        for _ in 0..<60 { try file.write(Data(repeating: 1, count: 10_000)) }
        try await file.settle(keepingAtMost: 0)
        _ = file.request(resuming: request, window: 600_000)
        try file.open(try partial("bytes 600000-1199999/1200000"))
        for _ in 0..<60 { try? file.write(Data(repeating: 2, count: 10_000)) }
        await #expect(throws: NetworkError.self) { try await file.settle(keepingAtMost: 0) }
        #expect(throws: NetworkError.self) { try file.ending() }
        // When a retry begins (the error reported once) and the rest is answered from byte 600,000
        _ = await file.beginAttempt()
        let next = file.request(resuming: request, window: 600_000)
        try file.open(try partial("bytes 600000-1199999/1200000"))
        for _ in 0..<60 { try file.write(Data(repeating: 3, count: 10_000)) }
        try await file.finishWriting()
        try file.move(to: destination)
        // Then the file was cut back to the bytes counted before the rest was appended
        #expect(next.value(forHTTPHeaderField: "Range") == "bytes=600000-1199999")
        #expect(
            try Data(contentsOf: destination)
                == Data(repeating: 1, count: 600_000) + Data(repeating: 3, count: 600_000))
    }

    @Test func aWindowThatContinuesTheFileDoesNotWaitForTheWritesBefore() async throws {
        // Given a disk that blocks every write until it is let go, and 600 KB of a first window handed
        // over (more than one write batch, so the writer is blocked in the middle of a write)
        let disk = GatedDisk()
        let file = ProviderWrittenFile(destination: destination, writeChunk: disk.write)
        defer { disk.letGo() }
        _ = file.request(resuming: request, window: 600_000)
        try file.open(try partial("bytes 0-599999/1200000"))
        for _ in 0..<60 { try file.write(Data(repeating: 1, count: 10_000)) }
        // When the second window's answer arrives (a watchdog lets the disk go after 20 s, so a wrong
        // implementation fails instead of hanging)
        let watchdog = ContinuousClock.now
        disk.letGo(afterSeconds: 20)
        _ = file.request(resuming: request, window: 600_000)
        try file.open(try partial("bytes 600000-1199999/1200000"))
        // Then it was taken at once, while the disk still held the writes before
        #expect(ContinuousClock.now - watchdog < .seconds(10))
        #expect(!disk.wasLetGo)
        for _ in 0..<60 { try file.write(Data(repeating: 2, count: 10_000)) }
        disk.letGo()
        try await file.finishWriting()
        try file.move(to: destination)
        #expect(
            try Data(contentsOf: destination) == Data(repeating: 1, count: 600_000)
                + Data(repeating: 2, count: 600_000))
    }

    @Test func settlingDoesNotWaitWhileNoMoreThanTheLimitWaitsForTheDisk() async throws {
        // Given 600 KB waiting for a disk that holds every write
        let disk = GatedDisk()
        let file = ProviderWrittenFile(destination: destination, writeChunk: disk.write)
        defer { disk.letGo() }
        _ = file.request(resuming: request, window: 600_000)
        try file.open(try partial("bytes 0-599999/1200000"))
        for _ in 0..<60 { try file.write(Data(repeating: 1, count: 10_000)) }
        disk.letGo(afterSeconds: 20)
        // When the download settles with a limit of one window of 1 MB
        try await file.settle(keepingAtMost: 1 << 20)
        // Then it went on while the disk still held the writes
        #expect(!disk.wasLetGo)
    }

    @Test func settlingWaitsForEveryWriteWhenMoreThanTheLimitWaits() async throws {
        // Given 1 MB handed to a slow disk that counts what it writes
        let disk = GatedDisk(open: true, delay: 0.001)
        let file = ProviderWrittenFile(destination: destination, writeChunk: disk.write)
        _ = file.request(resuming: request, window: 1 << 20)
        try file.open(try partial("bytes 0-1048575/2097152"))
        for _ in 0..<64 { try file.write(Data(repeating: 1, count: 16_384)) }
        // When the download settles with a limit of 100 KB
        try await file.settle(keepingAtMost: 100_000)
        // Then every byte was on the disk before it went on
        #expect(disk.bytesWritten == 1 << 20)
    }

    @Test func settlingReportsAWriteThatFailed() async throws {
        // Given 1 MB handed to a full disk
        let file = ProviderWrittenFile(destination: destination) { _, _ in .file(POSIXError(.ENOSPC)) }
        _ = file.request(resuming: request, window: 1 << 20)
        try file.open(try partial("bytes 0-1048575/2097152"))
        try file.write(Data(count: 1 << 20))
        // When the download settles, Then the disk's error is thrown before another window is asked for
        await #expect(throws: NetworkError.self) { try await file.settle(keepingAtMost: 0) }
    }
}

/// A disk for the writer: every write waits until it is let go (or a delay passes), then lands for
/// real and is counted.
private final class GatedDisk: Sendable {
    private let gate = Locked(false)
    private let written = Locked<Int>(0)
    private let opened = DispatchSemaphore(value: 0)
    private let delay: TimeInterval

    init(open: Bool = false, delay: TimeInterval = 0) {
        self.delay = delay
        if open { letGo() }
    }

    var wasLetGo: Bool { gate.withLock { $0 } }
    var bytesWritten: Int { written.withLock { $0 } }

    func letGo() {
        let first = gate.withLock { open in
            defer { open = true }
            return !open
        }
        if first { opened.signal() }
    }

    func letGo(afterSeconds seconds: Int) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) { self.letGo() }
    }

    var write: @Sendable (Data, Int32) -> NetworkError? {
        { data, descriptor in
            if !self.wasLetGo {
                self.opened.wait()
                self.opened.signal()
            }
            if self.delay > 0 { Thread.sleep(forTimeInterval: self.delay) }
            let failure = FileCalls.writeAll(data, to: descriptor)
            if failure == nil { self.written.withLock { $0 += data.count } }
            return failure
        }
    }
}

/// A disk that writes everything, except that the first write to pass `failingAfter` bytes puts half of
/// its chunk on the disk and fails as a full disk would.
private final class HalfFailingDisk: Sendable {
    private let written = Locked<(bytes: Int, failed: Bool)>((0, false))
    private let failingAfter: Int

    init(failingAfter: Int) {
        self.failingAfter = failingAfter
    }

    var write: @Sendable (Data, Int32) -> NetworkError? {
        { data, descriptor in
            let fails = self.written.withLock { written -> Bool in
                defer { written.bytes += data.count }
                guard !written.failed, written.bytes + data.count > self.failingAfter else { return false }
                written.failed = true
                return true
            }
            guard fails else { return FileCalls.writeAll(data, to: descriptor) }
            _ = FileCalls.writeAll(data.prefix(data.count / 2), to: descriptor)
            return .file(POSIXError(.ENOSPC))
        }
    }
}
