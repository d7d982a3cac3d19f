import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The file of one download that URLSession writes itself with download tasks, shared by its attempts:
/// the resume data a failed attempt left, and the file a finished task handed over, moved to a hidden
/// file beside the destination (URLSession deletes its own once the delegate returns).
final class DownloadTaskFile: Sendable {
    private struct State: Sendable {
        var resumeData: Data?
        /// The strong validator of the answer whose bytes the resume data continues.
        var validator: String?
        /// A resumed answer was of another version: the next attempt starts over.
        var restartsFromScratch = false
        /// The moved file, by device and inode, and its size.
        var identity: FileCalls.Identity?
        var byteCount: Int64 = 0
        /// The download is over without a file: a file handed over now is removed.
        var isDiscarded = false
    }

    /// A hidden file beside the destination, unique to this download, moved into place at the end.
    let partURL: URL
    private let state = Locked(State())

    init(destination: URL) {
        partURL = FileCalls.partURL(beside: destination)
    }

    /// The key of a failed download task's resume data in its error's `userInfo`, on every platform.
    static let resumeDataKey = "NSURLSessionDownloadTaskResumeData"

    /// Whether a failed attempt left resume data for the next.
    var canResume: Bool { state.withLock { $0.resumeData != nil } }

    /// Takes the resume data a failed attempt left: the next task asks only for the missing bytes.
    func takeResumeData() -> Data? {
        state.withLock { state in
            defer { state.resumeData = nil }
            return state.resumeData
        }
    }

    /// Keeps the resume data URLSession put in a failed task's `error`, if any.
    func keepResumeData(of error: any Error) {
        guard let data = (error as NSError).userInfo[Self.resumeDataKey] as? Data else { return }
        state.withLock { $0.resumeData = data }
    }

    /// Whether the last attempt got bytes of another version, so the next starts over; asking clears it.
    func takeRestart() -> Bool {
        state.withLock { state in
            defer { state.restartsFromScratch = false }
            return state.restartsFromScratch
        }
    }

    /// Checks an accepted answer. A `206` to a resume must carry the strong validator of the answer it
    /// continues: a server that honours `Range` but ignores `If-Range` would otherwise add another
    /// version's bytes to the file. Such an answer fails the attempt, and the next starts over.
    func check(_ head: HTTPURLResponse, resumed: Bool) throws {
        let validator = DownloadFile.strongValidator(in: head.headerFields)
        try state.withLock { state in
            guard resumed, head.statusCode == 206 else {
                state.validator = validator
                return
            }
            guard let kept = state.validator, validator == kept else {
                state.validator = nil
                state.resumeData = nil
                state.restartsFromScratch = true
                throw NetworkError.transport(URLError(.cannotParseResponse))
            }
        }
    }

    /// Moves a finished task's file beside the destination (copied when it is on another volume).
    func adopt(_ location: URL) throws {
        removeFile()
        // FoundationNetworking leaves a file it handed over where it is: one not moved is removed.
        guard !state.withLock({ $0.isDiscarded }) else {
            try? FileManager.default.removeItem(at: location)
            return
        }
        do {
            try FileManager.default.moveItem(at: location, to: partURL)
        } catch {
            try? FileManager.default.removeItem(at: location)
            throw NetworkError.file(error)
        }
        guard let (identity, size) = FileCalls.entry(at: partURL) else {
            throw NetworkError.file(POSIXError(.ENOENT))
        }
        // A download given up while the file moved (cancelled as its task finished) keeps no file.
        let kept = state.withLock { state in
            guard !state.isDiscarded else { return false }
            state.identity = identity
            state.byteCount = size
            return true
        }
        if !kept { FileCalls.remove(partURL, ifStill: identity) }
    }

    /// Moves the file to `destination`, replacing what is there, in one step, if the hidden file is still
    /// the one this download moved there. Returns its size.
    func move(to destination: URL) throws -> Int64 {
        let moved = state.withLock { state in state.identity.map { ($0, state.byteCount) } }
        guard let (identity, byteCount) = moved, FileCalls.isStill(partURL, identity) else {
            throw NetworkError.file(POSIXError(.ENOENT))
        }
        try FileCalls.replace(destination, with: partURL)
        return byteCount
    }

    /// Ends the download without a file: removes the hidden file, if it is still the one this download
    /// moved there, and any a finishing task hands over later.
    func discard() {
        state.withLock { $0.isDiscarded = true }
        removeFile()
    }

    /// Removes the hidden file, if it is still the one this download moved there.
    private func removeFile() {
        let identity = state.withLock { state in
            defer { state.identity = nil }
            return state.identity
        }
        if let identity { FileCalls.remove(partURL, ifStill: identity) }
    }
}

/// Receives a download task's events: the head (which tells a refused answer), the bytes written (for
/// progress) and, at the end, the file. A refused answer's first MiB is read back for the error.
final class DownloadTaskSink: TransferSink, Sendable {
    private let file: DownloadTaskFile
    private let accepts: any StatusCodeSet
    private let progress: (@Sendable (TransferProgress) -> Void)?
    private let resumed: Bool
    private let refused = Locked<Data?>(nil)

    /// - Parameter resumed: Whether the task resumes from resume data.
    init(
        file: DownloadTaskFile, accepts: any StatusCodeSet, resumed: Bool,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) {
        self.file = file
        self.accepts = accepts
        self.resumed = resumed
        self.progress = progress
    }

    /// The body of a refused status, capped at ``NetworkProvider/errorBodyLimit``.
    var refusedBody: Data? { refused.withLock { $0 } }

    func open(_ head: HTTPURLResponse) throws {
        guard accepts.contains(head.statusCode) else {
            refused.withLock { $0 = Data() }
            return
        }
        try file.check(head, resumed: resumed)
    }

    /// Never called: a download task writes its own file.
    func write(_ data: Data) throws {}

    func close(_ error: (any Error)?) {}

    /// URLSession wrote `total` bytes of `expected` (negative when unknown).
    func wrote(_ total: Int64, of expected: Int64) {
        guard refusedBody == nil else { return }
        progress?(TransferProgress(completedBytes: total, expectedBytes: expected >= 0 ? expected : nil))
    }

    /// The task finished its file at `location`: kept for an accepted answer, read for a refused one.
    func finished(at location: URL) throws {
        guard refusedBody != nil else {
            try file.adopt(location)
            return
        }
        defer { try? FileManager.default.removeItem(at: location) }
        let handle = try? FileHandle(forReadingFrom: location)
        let body = (try? handle?.read(upToCount: NetworkProvider.errorBodyLimit)) ?? nil
        try? handle?.close()
        refused.withLock { $0 = body ?? Data() }
    }
}
