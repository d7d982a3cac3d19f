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
/// that hands them over, which only waits for the file to be opened, once per response. The descriptor
/// is opened, written and closed only on that queue, so it is never closed (and its number reused) under
/// a write. The file is created anew (never an existing one), and reopened for a resume only if it is
/// still the same regular file, with one link and at least the bytes counted.
final class DownloadFile: Sendable {
    private struct State: Sendable {
        var descriptor: Int32 = -1
        /// The file this download created, by device and inode.
        var identity: FileCalls.Identity?
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
    private let writeChunk: @Sendable (Data, Int32) -> NetworkError?
    /// How many bytes wait before the writer is woken: once per 512 KiB, not per 16 KB chunk.
    private static let batchBytes: Int64 = 512 << 10

    /// - Parameters:
    ///   - destination: The file the download ends in; the partial file is a hidden, unique file beside
    ///     it, not derived from its name, which may already be near the file system's limit.
    ///   - writeChunk: Writes one chunk to a descriptor (tests inject a failing one); `write(2)` in a loop
    ///     by default.
    init(destination: URL, writeChunk: (@Sendable (Data, Int32) -> NetworkError?)? = nil) {
        partURL = destination.deletingLastPathComponent().appendingPathComponent(
            ".download-\(UUID().uuidString).part")
        self.writeChunk = writeChunk ?? FileCalls.writeAll
    }

    /// Whether an attempt may ask for only the missing bytes (call after ``beginAttempt()``).
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

    /// `request`, asking for the missing bytes when the download can resume (call after
    /// ``beginAttempt()``).
    func request(resuming request: URLRequest) -> URLRequest {
        guard let point = state.withLock({ $0.resumePoint }) else { return request }
        var request = request
        request.setValue("bytes=\(point.offset)-", forHTTPHeaderField: "Range")
        request.setValue(point.validator, forHTTPHeaderField: "If-Range")
        return request
    }

    /// Waits for every write of the attempts before and clears their failure, returning it: a write that
    /// failed while its transfer ended another way (a timeout) is reported here, not resumed into.
    func beginAttempt() async -> NetworkError? {
        await onWriter {
            self.drain()
            return self.state.withLock { state in
                defer { state.writeError = nil }
                return state.writeError
            }
        }
    }

    /// Prepares the file for a successful head: appends after a matching `206`, starts over otherwise.
    /// Every chunk already handed over is written first, to the file it was meant for.
    func open(_ head: HTTPURLResponse) throws {
        try writer.sync {
            drain()
            try openNow(head)
        }
    }

    private func openNow(_ head: HTTPURLResponse) throws {
        let headers = head.headerFields
        try state.withLock { state in
            FileCalls.closeFile(&state.descriptor)
            // A download already given up creates no file.
            guard !state.isDiscarded else { throw CancellationError() }
            state.writeError = nil
            let range = head.statusCode == 206 ? ContentRange(headers.value(named: "Content-Range")) : nil
            // A 206 from byte 0 of a download with nothing written is a first answer, not a resumed one.
            let resumes = head.statusCode == 206 && !(state.written == 0 && range?.first == 0)
            if resumes {
                // Not the bytes asked for, or a file that is no longer the one written: start over.
                guard let range, range.first == state.written, let identity = state.identity,
                    let descriptor = try Self.reopened(partURL, as: identity, keeping: state.written)
                else {
                    state.validator = nil
                    state.written = 0
                    state.restartsFromScratch = true
                    throw NetworkError.transport(URLError(.cannotParseResponse))
                }
                state.expectedTotal = range.total
                state.descriptor = descriptor
            } else {
                state.written = 0
                state.expectedTotal =
                    range.map { $0.total }
                    ?? (head.expectedContentLength >= 0 ? head.expectedContentLength : nil)
                let etag = headers.value(named: "ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
                state.validator = etag ?? headers.value(named: "Last-Modified")
                state.acceptsRanges = headers.value(named: "Accept-Ranges")?.lowercased() == "bytes"
                if let identity = state.identity { FileCalls.remove(partURL, ifStill: identity) }
                state.identity = nil
                let (descriptor, identity) = try FileCalls.create(partURL)
                (state.descriptor, state.identity) = (descriptor, identity)
            }
        }
    }

    /// The partial file opened again, or `nil` when it is gone or no longer the file written (another
    /// file, a link, a FIFO: the download starts over); other failures (too many open files) are thrown.
    private static func reopened(_ url: URL, as identity: FileCalls.Identity, keeping length: Int64) throws
        -> Int32?
    {
        do {
            return try FileCalls.reopen(url, as: identity, keeping: length)
        } catch NetworkError.file(let reason as POSIXError)
            where [.ESTALE, .ENOENT, .ENXIO, .ELOOP].contains(reason.code)
        {
            return nil
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
            guard !state.isDraining, state.queuedBytes >= Self.batchBytes else { return false }
            state.isDraining = true
            return true
        }
        if startsDrain { writer.async { self.drain() } }
    }

    /// Writes what is queued until nothing is. After a failed write the rest is dropped, and so is a
    /// chunk that arrives after its file was closed (a transfer ending as it is delivered).
    private func drain() {
        while true {
            let next = state.withLock { state -> ([Data], Int32)? in
                guard !state.queued.isEmpty else {
                    state.isDraining = false
                    return nil
                }
                defer { state.queued = [] }
                guard state.descriptor >= 0 else {
                    state.queuedBytes = 0
                    return ([], -1)
                }
                return (state.queued, state.descriptor)
            }
            guard let (chunks, descriptor) = next else { return }
            for chunk in chunks {
                let failure = writeChunk(chunk, descriptor)
                let stop = state.withLock { state -> Bool in
                    // Discarded while this batch was written: the rest is not worth writing.
                    if state.isDiscarded { return true }
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

    /// Waits for every chunk handed over, then throws the error of a write that failed: what the last
    /// chunks of a body, written after the transfer ended, report through.
    func flush() async throws {
        let error = await onWriter {
            self.drain()
            return self.state.withLock { $0.writeError }
        }
        if let error { throw error }
    }

    /// Waits for the writes, closes the file and throws the error of a write or of the close that failed.
    func finishWriting() async throws {
        let error = await onWriter {
            self.drain()
            return self.state.withLock { state -> NetworkError? in
                let closed = FileCalls.closeFile(&state.descriptor)
                return state.writeError ?? closed
            }
        }
        if let error { throw error }
    }

    private func onWriter<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            writer.async { continuation.resume(returning: body()) }
        }
    }

    /// Closes the file once the writes before it are done (the partial file stays for a resume).
    func close() {
        writer.async {
            self.drain()
            self.state.withLock { state in
                // A deferred failure (a network file system) shows when the file is closed.
                if let failure = FileCalls.closeFile(&state.descriptor) {
                    state.writeError = state.writeError ?? failure
                }
            }
        }
    }

    /// Whether every byte the server announced has arrived.
    var isComplete: Bool {
        state.withLock { state in
            state.expectedTotal.map { state.written + state.queuedBytes >= $0 } ?? true
        }
    }

    /// Moves the finished file to `destination`, replacing what is there, in one step (call after
    /// ``finishWriting()``), if the partial file is still the one this download wrote.
    func move(to destination: URL) throws {
        guard let identity = state.withLock({ $0.identity }), FileCalls.isStill(partURL, identity) else {
            throw NetworkError.file(POSIXError(.ENOENT))
        }
        guard rename(partURL.path, destination.path) == 0 else {
            throw NetworkError.file(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
        }
    }

    /// Drops the chunks not yet written and removes the partial file (only if it is still the one this
    /// download created); later attempts to open it fail.
    func discard() async {
        // At once, not after the writes queued before: a cancelled download does not wait for its backlog.
        state.withLock { state in
            state.isDiscarded = true
            state.queued = []
            state.queuedBytes = 0
        }
        let identity = await onWriter {
            self.state.withLock { state in
                FileCalls.closeFile(&state.descriptor)
                return state.identity
            }
        }
        if let identity { FileCalls.remove(partURL, ifStill: identity) }
    }
}

/// The system calls the download's file needs, with errors as ``NetworkError/file(_:)``.
enum FileCalls {
    /// A file's device and inode.
    struct Identity: Sendable, Equatable {
        let device: UInt64
        let inode: UInt64

        init(_ status: stat) {
            device = UInt64(truncatingIfNeeded: status.st_dev)
            inode = UInt64(truncatingIfNeeded: status.st_ino)
        }
    }

    private static let flags = O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK

    /// Creates the file at `url`, which must not exist (a link or a FIFO put there is refused, without
    /// blocking), with the permissions the process's umask gives a new file.
    static func create(_ url: URL) throws -> (Int32, Identity) {
        let descriptor = try openDescriptor(url, flags | O_CREAT | O_EXCL)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw closing(descriptor, failure(errno)) }
        return (descriptor, Identity(status))
    }

    /// Opens the file at `url` again for appending after its first `length` bytes, dropping any bytes
    /// past them (a write that failed halfway), if it is still `identity`, a regular file with one link
    /// and at least `length` bytes.
    static func reopen(_ url: URL, as identity: Identity, keeping length: Int64) throws -> Int32 {
        let descriptor = try openDescriptor(url, flags)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw closing(descriptor, failure(errno)) }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_nlink == 1, Identity(status) == identity,
            Int64(status.st_size) >= length
        else { throw closing(descriptor, NetworkError.file(POSIXError(.ESTALE))) }
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw closing(descriptor, failure(errno)) }
        return descriptor
    }

    /// Whether the entry at `url` (not following a link) is still the file `identity`.
    static func isStill(_ url: URL, _ identity: Identity) -> Bool {
        var status = stat()
        let found = url.withUnsafeFileSystemRepresentation { path in path.map { lstat($0, &status) } ?? -1 }
        return found == 0 && Identity(status) == identity
    }

    /// Removes the entry at `url` if it is still the file `identity`.
    static func remove(_ url: URL, ifStill identity: Identity) {
        guard isStill(url, identity) else { return }
        _ = url.withUnsafeFileSystemRepresentation { path in path.map { unlink($0) } }
    }

    /// Closes `descriptor` (when open) and marks it closed; returns the close's failure.
    @discardableResult
    static func closeFile(_ descriptor: inout Int32) -> NetworkError? {
        guard descriptor >= 0 else { return nil }
        defer { descriptor = -1 }
        return close(descriptor) == 0 ? nil : failure(errno)
    }

    /// Writes all of `data`, retrying short writes and interruptions; returns the failure.
    static func writeAll(_ data: Data, to descriptor: Int32) -> NetworkError? {
        data.withUnsafeBytes { buffer -> NetworkError? in
            guard var next = buffer.baseAddress else { return nil }
            var left = buffer.count
            while left > 0 {
                let count = write(descriptor, next, left)
                if count < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    return failure(code)
                }
                // Nothing written and no error: never loop on it.
                guard count > 0 else { return failure(EIO) }
                next += count
                left -= count
            }
            return nil
        }
    }

    private static func openDescriptor(_ url: URL, _ flags: Int32) throws -> Int32 {
        let (descriptor, code) = url.withUnsafeFileSystemRepresentation { path -> (Int32, Int32) in
            guard let path else { return (-1, ENOENT) }
            let descriptor = open(path, flags, 0o666)
            return (descriptor, errno)
        }
        guard descriptor >= 0 else { throw failure(code) }
        return descriptor
    }

    private static func closing(_ descriptor: Int32, _ error: NetworkError) -> NetworkError {
        _ = close(descriptor)
        return error
    }

    private static func failure(_ code: Int32) -> NetworkError {
        NetworkError.file(POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
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
