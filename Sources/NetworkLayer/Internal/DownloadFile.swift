import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The partial file of one download, shared by its attempts: what has been written, and whether the
/// server lets the rest be asked for (`Accept-Ranges: bytes` and a validator for `If-Range`).
///
/// Chunks are written on a serial queue of the file's own, not on the transfer session's delegate queue
/// that hands them over: on Linux that queue delivers every chunk as an operation, and a writer on it falls
/// behind the socket, so chunks (and memory) pile up in it. Opening, closing and removing the file go
/// through the same queue, after the writes before them.
final class DownloadFile: Sendable {
    private struct State: Sendable {
        var descriptor: Int32 = -1
        /// Bytes in the file.
        var written: Int64 = 0
        /// Bytes handed over and not yet written.
        var queued: [Data] = []
        var queuedBytes: Int64 = 0
        var isDraining = false
        var writeError: NetworkError?
        var expectedTotal: Int64?
        var validator: String?
        var acceptsRanges = false
        var restartsFromScratch = false
        var isDiscarded = false

        /// Where a resumed attempt starts and the validator it sends, when the server allows ranges.
        var resumePoint: (offset: Int64, validator: String)? {
            guard written > 0, acceptsRanges, let validator else { return nil }
            return (written, validator)
        }
    }

    /// A hidden file beside the destination, unique to this download, moved into place at the end.
    let partURL: URL
    private let state = Locked(State())
    private let writer = DispatchQueue(label: "NetworkLayer.DownloadFile")
    /// How many bytes wait before the writer is woken.
    private static let batchBytes: Int64 = 512 << 10

    /// - Parameter partURL: Where the partial file goes (tests pass `/dev/full`); by default a hidden,
    ///   unique file beside `destination`, not derived from its name, which may already be near the file
    ///   system's limit.
    init(destination: URL, partURL: URL? = nil) {
        self.partURL =
            partURL
            ?? destination.deletingLastPathComponent().appendingPathComponent(
                ".download-\(UUID().uuidString).part")
    }

    /// Whether an attempt may ask for only the missing bytes (call after ``settle()``).
    var canResume: Bool {
        state.withLock { $0.resumePoint != nil }
    }

    /// Whether the last attempt got bytes other than those asked for, so the next starts over; asking
    /// clears it.
    func takeRestart() -> Bool {
        state.withLock { state in
            defer { state.restartsFromScratch = false }
            return state.restartsFromScratch
        }
    }

    /// The bytes received so far (written or about to be), and the total when known.
    var progress: TransferProgress {
        state.withLock {
            TransferProgress(completedBytes: $0.written + $0.queuedBytes, expectedBytes: $0.expectedTotal)
        }
    }

    /// `request`, asking for the missing bytes when the download can resume (call after ``settle()``).
    func request(resuming request: URLRequest) -> URLRequest {
        guard let point = state.withLock({ $0.resumePoint }) else { return request }
        var request = request
        request.setValue("bytes=\(point.offset)-", forHTTPHeaderField: "Range")
        request.setValue(point.validator, forHTTPHeaderField: "If-Range")
        return request
    }

    /// Prepares the file for a successful head: appends after a matching `206`, starts over otherwise.
    /// Runs after every write already handed over.
    func open(_ head: HTTPURLResponse) throws {
        try writer.sync { try openNow(head) }
    }

    private func openNow(_ head: HTTPURLResponse) throws {
        let headers = head.headerFields
        try state.withLock { state in
            FileCalls.closeFile(&state.descriptor)
            // A download already given up creates no file.
            guard !state.isDiscarded else { throw CancellationError() }
            state.writeError = nil
            if head.statusCode == 206 {
                guard let range = ContentRange(headers.value(named: "Content-Range")),
                    range.first == state.written
                else {
                    // Not the bytes asked for: the next attempt starts over.
                    state.validator = nil
                    state.written = 0
                    state.restartsFromScratch = true
                    throw NetworkError.transport(URLError(.cannotParseResponse))
                }
                state.expectedTotal = range.total
                // Bytes past `written` (a write that failed halfway) are not kept: the 206 follows `written`.
                state.descriptor = try FileCalls.openFile(partURL, keeping: state.written)
            } else {
                state.written = 0
                state.expectedTotal = head.expectedContentLength >= 0 ? head.expectedContentLength : nil
                let etag = headers.value(named: "ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
                state.validator = etag ?? headers.value(named: "Last-Modified")
                state.acceptsRanges = headers.value(named: "Accept-Ranges")?.lowercased() == "bytes"
                state.descriptor = try FileCalls.openFile(partURL, keeping: 0)
            }
        }
    }

    /// Hands `data` to the writer; throws the error of an earlier write that failed (a full disk).
    func write(_ data: Data) throws {
        guard !data.isEmpty else { return }
        let startsDrain = try state.withLock { state -> Bool in
            if let error = state.writeError { throw error }
            guard state.descriptor >= 0 else { return false }
            state.queued.append(data)
            state.queuedBytes += Int64(data.count)
            // Batched: waking the writer for every 16 KB chunk costs more than the write.
            guard !state.isDraining, state.queuedBytes >= Self.batchBytes else { return false }
            state.isDraining = true
            return true
        }
        if startsDrain { writer.async { self.drain() } }
    }

    /// Writes what is queued until nothing is; after a failed write the rest is dropped.
    private func drain() {
        while true {
            let next = state.withLock { state -> ([Data], Int32)? in
                guard !state.queued.isEmpty else {
                    state.isDraining = false
                    return nil
                }
                defer { state.queued = [] }
                return (state.queued, state.descriptor)
            }
            guard let (chunks, descriptor) = next else { return }
            for chunk in chunks {
                let failure = FileCalls.writeAll(chunk, to: descriptor)
                let stop = state.withLock { state -> Bool in
                    state.queuedBytes -= Int64(chunk.count)
                    if let failure {
                        state.writeError = state.writeError ?? failure
                        state.queuedBytes = 0
                        state.queued = []
                        return true
                    }
                    state.written += Int64(chunk.count)
                    return false
                }
                if stop { break }
            }
        }
    }

    /// Waits until every chunk handed over is written (or dropped after a failed write).
    func settle() async {
        await onWriter { self.drain() }
    }

    /// Waits for the writes, closes the file and throws the error of a write that failed.
    func finishWriting() async throws {
        let error = await onWriter {
            self.drain()
            return self.state.withLock { state in
                FileCalls.closeFile(&state.descriptor)
                return state.writeError
            }
        }
        if let error { throw error }
    }

    /// Runs `body` on the writer's queue, after what is already there: the descriptor is only written,
    /// opened and closed there, so it is never closed (and its number reused) under a write.
    private func onWriter<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            writer.async { continuation.resume(returning: body()) }
        }
    }

    /// Closes the file once the writes before it are done (the partial file stays for a resume).
    func close() {
        writer.async {
            self.drain()
            self.state.withLock { FileCalls.closeFile(&$0.descriptor) }
        }
    }

    /// Whether every byte the server announced has arrived.
    var isComplete: Bool {
        state.withLock { state in
            state.expectedTotal.map { state.written + state.queuedBytes >= $0 } ?? true
        }
    }

    /// Moves the finished file to `destination`, replacing what is there, in one step (call after
    /// ``finishWriting()``).
    func move(to destination: URL) throws {
        guard rename(partURL.path, destination.path) == 0 else {
            throw NetworkError.file(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
        }
    }

    /// Drops the chunks not yet written and removes the partial file; later attempts to open it fail.
    func discard() async {
        await onWriter {
            self.state.withLock { state in
                state.isDiscarded = true
                state.queued = []
                state.queuedBytes = 0
                FileCalls.closeFile(&state.descriptor)
            }
        }
        try? FileManager.default.removeItem(at: partURL)
    }
}

/// The system calls the download's file needs, with errors as ``NetworkError/file(_:)``.
private enum FileCalls {
    /// Opens (creating, owner-only) the file at `url` for appending after its first `length` bytes,
    /// dropping any bytes past them. A symbolic link or a FIFO put in its place is refused, without
    /// blocking on the FIFO.
    static func openFile(_ url: URL, keeping length: Int64) throws -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK
        let descriptor = url.withUnsafeFileSystemRepresentation { path in
            path.map { open($0, flags, 0o600) } ?? -1
        }
        guard descriptor >= 0 else { throw failure }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let error = failure
            _ = close(descriptor)
            throw error
        }
        guard status.st_mode & S_IFMT != S_IFIFO else {
            _ = close(descriptor)
            throw NetworkError.file(POSIXError(.ENXIO))
        }
        // Only when needed: a device (the tests' /dev/full) cannot be truncated.
        guard status.st_size == off_t(length) || ftruncate(descriptor, off_t(length)) == 0 else {
            let error = failure
            _ = close(descriptor)
            throw error
        }
        return descriptor
    }

    static func closeFile(_ descriptor: inout Int32) {
        if descriptor >= 0 { _ = close(descriptor) }
        descriptor = -1
    }

    /// Writes all of `data`, retrying short writes and interruptions; returns the failure.
    static func writeAll(_ data: Data, to descriptor: Int32) -> NetworkError? {
        data.withUnsafeBytes { buffer -> NetworkError? in
            guard var next = buffer.baseAddress else { return nil }
            var left = buffer.count
            while left > 0 {
                let count = write(descriptor, next, left)
                if count < 0 {
                    if errno == EINTR { continue }
                    return failure
                }
                next += count
                left -= count
            }
            return nil
        }
    }

    private static var failure: NetworkError {
        NetworkError.file(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
    }
}

/// A `Content-Range: bytes first-last/total` header, checked: digits only, no overflow, first ≤ last,
/// last < total when the total is known.
struct ContentRange: Equatable {
    let first: Int64
    let last: Int64
    let total: Int64?

    init(first: Int64, last: Int64, total: Int64?) {
        (self.first, self.last, self.total) = (first, last, total)
    }

    init?(_ header: String?) {
        guard let header, header.hasPrefix("bytes ") else { return nil }
        let spec = header.dropFirst("bytes ".count)
        let parts = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let bounds = parts[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Self.number(bounds[0]), let last = Self.number(bounds[1]),
            first <= last
        else { return nil }
        let total: Int64?
        if parts[1] == "*" {
            total = nil
        } else {
            guard let value = Self.number(parts[1]), last < value else { return nil }
            total = value
        }
        (self.first, self.last, self.total) = (first, last, total)
    }

    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(text)
    }
}

extension [String: String] {
    /// The value of the header `name`, compared without case.
    func value(named name: String) -> String? {
        first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
