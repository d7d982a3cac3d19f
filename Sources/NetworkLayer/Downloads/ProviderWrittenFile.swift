import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The partial file of one download, shared by its attempts: what has been written, and whether the
/// server lets the rest be asked for (`Accept-Ranges: bytes`, or a `206` answer, and a validator for
/// `If-Range`).
///
/// A download may ask for its body in windows (`Range: bytes=first-last`), one request after another:
/// FoundationNetworking's data tasks have no flow control, so a window bounds what can wait in memory
/// when the disk is slower than the network. A window that continues the file (a `206` from the byte
/// after the last one received) keeps writing to the open file, without waiting for the writes before.
///
/// Chunks are written on a serial queue of the file's own, not on the delegate session's queue that
/// hands them over, which only waits for the file to be opened, once per response. The descriptor
/// is opened, written and closed only on that queue, so it is never closed (and its number reused) under
/// a write. The file is created anew (never an existing one), and reopened for a resume only if it is
/// still the same regular file, with one link and at least the bytes counted.
final class ProviderWrittenFile: Sendable {
    struct State: Sendable {
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
        /// A close was asked for and has not run yet: the file is not continued into.
        var isClosing = false
        /// The end (exclusive) of the bytes the last request asked for, when it asked for a window.
        var askedEnd: Int64?
        /// The first byte the last request asked for with `Range`; `nil` when it asked for no range, so
        /// that a `206` must carry the whole body.
        var askedFrom: Int64?
        /// The end (exclusive) of the bytes the last `206` answer carries; `nil` after a `200`.
        var answerEnd: Int64?
        /// The server answered a window unusably (a `416`, a `206` for other bytes): no more windows.
        var windowsRefused = false
        /// The head of the last answer whose bytes the file holds: what a download that ends without
        /// another answer reports.
        var lastHead: HTTPURLResponse?

        /// Bytes written or about to be: where the file ends once the writer is done.
        var received: Int64 { written + queuedBytes }

        /// Where a resumed attempt starts and the validator it sends, when the server allows ranges.
        var resumePoint: (offset: Int64, validator: String)? {
            guard received > 0, acceptsRanges, let validator else { return nil }
            return (received, validator)
        }
    }

    /// A hidden file beside the destination, unique to this download, moved into place at the end.
    let partURL: URL
    let state = Locked(State())
    let writer = DispatchQueue(label: "NetworkLayer.ProviderWrittenFile")
    let writeChunk: @Sendable (Data, Int32) -> NetworkError?
    /// How many bytes wait before the writer is woken: once per 512 KiB, not per 16 KB chunk.
    static let batchBytes: Int64 = 512 << 10

    /// - Parameters:
    ///   - destination: The file the download ends in; the partial file is a hidden, unique file beside
    ///     it, not derived from its name, which may already be near the file system's limit.
    ///   - writeChunk: Writes one chunk to a descriptor (tests inject a failing one); `write(2)` in a loop
    ///     by default.
    init(destination: URL, writeChunk: (@Sendable (Data, Int32) -> NetworkError?)? = nil) {
        partURL = FileCalls.partURL(beside: destination)
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

    /// What the bytes of a transfer that ended without an error amount to.
    enum TransferEnding: Equatable {
        /// Every byte of the body has arrived.
        case complete
        /// The window asked for has arrived, and more is to be asked for.
        case windowDone
        /// The body stopped short of what was announced: a dropped connection.
        case cutShort
        /// A window was answered without the body's total, so where the body ends is unknown: the
        /// whole body is to be asked for in one request (``startOver()``).
        case totalUnknown
    }

    /// What the transfer that just ended without an error delivered; throws the error of a write that
    /// failed (a full disk is reported as such, not as a body cut short).
    func ending() throws -> TransferEnding {
        try state.withLock { state in
            if let error = state.writeError { throw error }
            let received = state.received
            guard let total = state.expectedTotal else {
                // A window's answer that does not say the total: a shorter answer could be the end of
                // the body or not, and asking past the end is refused.
                return state.askedEnd != nil && state.answerEnd != nil ? .totalUnknown : .complete
            }
            if received >= total { return .complete }
            // A range that ends short of the total answers a window asked for; asked for the rest, it
            // is a body cut short.
            return state.askedEnd != nil && received == state.answerEnd ? .windowDone : .cutShort
        }
    }

    /// Forgets every byte received and the partial file, dropping the writes not yet made, and asks for
    /// the whole body in one request from now on.
    func startOver() async {
        state.withLock { state in
            state.queued = []
            state.queuedBytes = 0
        }
        // After a batch already being written, whose bytes (and failure) are forgotten with the rest.
        await onWriter {
            self.state.withLock { state in
                FileCalls.closeFile(&state.descriptor)
                state.isClosing = false
                if let identity = state.identity { FileCalls.remove(self.partURL, ifStill: identity) }
                state.identity = nil
                (state.written, state.queuedBytes, state.writeError) = (0, 0, nil)
                (state.expectedTotal, state.validator) = (nil, nil)
                (state.answerEnd, state.askedEnd, state.windowsRefused) = (nil, nil, true)
            }
        }
    }

    /// Waits until no more than `limit` bytes wait for the writer (all of them are written when more
    /// do), then throws the error of a write that failed: what keeps a windowed download's memory
    /// bounded when the disk is slower than the network. It is not cancelled with its task: it waits
    /// for at most the writes of the windows before.
    func settle(keepingAtMost limit: Int64) async throws {
        let error: NetworkError?
        if state.withLock({ $0.queuedBytes > limit && $0.writeError == nil }) {
            error = await onWriter {
                self.drain()
                return self.state.withLock { $0.writeError }
            }
        } else {
            error = state.withLock { $0.writeError }
        }
        if let error { throw error }
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
    /// A `206` that continues the open file is appended at once; otherwise every chunk already handed
    /// over is written first, to the file it was meant for, and the file is opened again.
    func open(_ head: HTTPURLResponse) throws {
        let range =
            head.statusCode == 206 ? ContentRange(head.headerFields.value(named: "Content-Range")) : nil
        if let range, try continues(with: range, headers: head.headerFields) {
            state.withLock { $0.lastHead = head }
            return
        }
        try writer.sync {
            drain()
            try openNow(head, range: range)
        }
        state.withLock { $0.lastHead = head }
    }

    /// Whether a `206` with `range` continues the file still open, without a gap or an overlap, of the
    /// same version (``RangeRules``); then it is taken as the current answer.
    func continues(with range: ContentRange, headers: [String: String]) throws -> Bool {
        try state.withLock { state in
            guard !state.isDiscarded else { throw CancellationError() }
            if let error = state.writeError { throw error }
            guard state.descriptor >= 0, !state.isClosing, state.received > 0,
                state.askedFrom == state.received, range.total == state.expectedTotal,
                RangeRules.verdict(
                    on: headers, asked: .bytes(from: state.received, validator: state.validator))
                    == .continuesFile
            else { return false }
            state.answerEnd = range.last + 1
            return true
        }
    }

    func openNow(_ head: HTTPURLResponse, range: ContentRange?) throws {
        let headers = head.headerFields
        try state.withLock { state in
            FileCalls.closeFile(&state.descriptor)
            state.isClosing = false
            // A download already given up creates no file.
            guard !state.isDiscarded else { throw CancellationError() }
            // A write that failed is reported, never written past.
            if let error = state.writeError { throw error }
            state.answerEnd = range.map { $0.last + 1 }
            // A 206 from byte 0 of a download with nothing written is a first answer, not a resumed one;
            // a 206 to a request that asked for no range must carry the whole body.
            let asked =
                state.askedFrom == nil
                ? RangeRules.Asked.nothing : .bytes(from: state.written, validator: state.validator)
            let verdict = head.statusCode == 206 ? RangeRules.verdict(on: headers, asked: asked) : .startsFile
            if verdict != .startsFile {
                // Not the bytes asked for, bytes of another version, or a file that is no longer the one
                // written: start over.
                guard verdict == .continuesFile, let range, let identity = state.identity,
                    let descriptor = try Self.reopened(partURL, as: identity, keeping: state.written)
                else {
                    state.validator = nil
                    state.written = 0
                    state.restartsFromScratch = true
                    state.windowsRefused = true
                    throw NetworkError.transport(URLError(.cannotParseResponse))
                }
                // A total once announced is kept if a later answer leaves it out (`/*`).
                state.expectedTotal = range.total ?? state.expectedTotal
                state.descriptor = descriptor
            } else {
                state.written = 0
                state.expectedTotal =
                    range.map { $0.total }
                    ?? (head.expectedContentLength >= 0 ? head.expectedContentLength : nil)
                state.validator = RangeRules.strongValidator(in: headers)
                state.acceptsRanges =
                    range != nil || headers.value(named: "Accept-Ranges")?.lowercased() == "bytes"
                if let identity = state.identity { FileCalls.remove(partURL, ifStill: identity) }
                state.identity = nil
                let (descriptor, identity) = try FileCalls.create(partURL)
                (state.descriptor, state.identity) = (descriptor, identity)
            }
        }
    }

    /// The partial file opened again, or `nil` when it is gone or no longer the file written (another
    /// file, a link, a FIFO: the download starts over); other failures (too many open files) are thrown.
    static func reopened(_ url: URL, as identity: FileCalls.Identity, keeping length: Int64) throws
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
}
