import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The partial file of one download, shared by its attempts: what has been written, and whether the
/// server lets the rest be asked for (`Accept-Ranges: bytes` and a validator for `If-Range`).
final class DownloadFile: Sendable {
    private struct State: @unchecked Sendable {
        // @unchecked Sendable: the handle is only used while holding the lock.
        var handle: FileHandle?
        var written: Int64 = 0
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

    init(destination: URL) {
        // Not derived from the destination's name, which may already be near the file system's limit.
        partURL = destination.deletingLastPathComponent().appendingPathComponent(
            ".download-\(UUID().uuidString).part")
    }

    /// Whether an attempt may ask for only the missing bytes.
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

    /// The bytes written so far, and the total when known.
    var progress: TransferProgress {
        state.withLock { TransferProgress(completedBytes: $0.written, expectedBytes: $0.expectedTotal) }
    }

    /// `request`, asking for the missing bytes when the download can resume.
    func request(resuming request: URLRequest) -> URLRequest {
        guard let point = state.withLock({ $0.resumePoint }) else { return request }
        var request = request
        request.setValue("bytes=\(point.offset)-", forHTTPHeaderField: "Range")
        request.setValue(point.validator, forHTTPHeaderField: "If-Range")
        return request
    }

    /// Prepares the file for a successful head: appends after a matching `206`, starts over otherwise.
    func open(_ head: HTTPURLResponse) throws {
        let headers = head.headerFields
        try state.withLock { state in
            state.handle.map { try? $0.close() }
            state.handle = nil
            // A download already given up creates no file.
            guard !state.isDiscarded else { throw CancellationError() }
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
                let handle = try Self.openForWriting(partURL, truncating: false)
                state.handle = handle
                do {
                    try handle.seekToEnd()
                } catch {
                    throw NetworkError.file(error)
                }
            } else {
                state.written = 0
                state.expectedTotal = head.expectedContentLength >= 0 ? head.expectedContentLength : nil
                let etag = headers.value(named: "ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
                state.validator = etag ?? headers.value(named: "Last-Modified")
                state.acceptsRanges = headers.value(named: "Accept-Ranges")?.lowercased() == "bytes"
                state.handle = try Self.openForWriting(partURL, truncating: true)
            }
        }
    }

    /// Appends `data`.
    func write(_ data: Data) throws {
        try state.withLock { state in
            guard let handle = state.handle else { return }
            do {
                try handle.write(contentsOf: data)
            } catch {
                throw NetworkError.file(error)
            }
            state.written += Int64(data.count)
        }
    }

    /// Closes the file handle (the partial file stays for a resume).
    func close() {
        let handle = state.withLock { state in
            defer { state.handle = nil }
            return state.handle
        }
        try? handle?.close()
    }

    /// Whether the file holds every byte the server announced.
    var isComplete: Bool {
        state.withLock { state in state.expectedTotal.map { state.written >= $0 } ?? true }
    }

    /// Moves the finished file to `destination`, replacing what is there, in one step.
    func move(to destination: URL) throws {
        close()
        guard rename(partURL.path, destination.path) == 0 else {
            throw NetworkError.file(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
        }
    }

    /// Removes the partial file; later attempts to open it fail.
    func discard() {
        state.withLock { $0.isDiscarded = true }
        close()
        try? FileManager.default.removeItem(at: partURL)
    }

    private static func openForWriting(_ url: URL, truncating: Bool) throws -> FileHandle {
        if truncating || !FileManager.default.fileExists(atPath: url.path) {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw NetworkError.file(
                    CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]))
            }
        }
        do {
            return try FileHandle(forWritingTo: url)
        } catch {
            throw NetworkError.file(error)
        }
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
