import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Receives a download task's events: the head (which tells a refused answer), the bytes written (for
/// progress) and, at the end, the file.
///
/// A refused answer's body is written by URLSession like any other. Once it passes
/// ``RefusedBody/limit`` while the head is known (from the first write on Apple platforms)
/// the transfer is stopped, and the error carries no body; a shorter one's is read back from the file.
final class DownloadTaskSink: TransferSink, Sendable {
    private let file: SessionWrittenFile
    private let accepts: any StatusCodeSet
    private let resumed: Bool
    private let progress: (@Sendable (TransferProgress) -> Void)?
    private let refused = Locked<RefusedBody?>(nil)

    /// - Parameter resumed: Whether the task resumes from resume data.
    init(
        file: SessionWrittenFile, accepts: any StatusCodeSet, resumed: Bool,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) {
        self.file = file
        self.accepts = accepts
        self.resumed = resumed
        self.progress = progress
    }

    /// The first bytes of a refused status's body (``RefusedBody``).
    var refusedBody: Data? { refused.withLock { $0?.bytes } }

    func open(_ head: HTTPURLResponse) throws {
        guard accepts.contains(head.statusCode) else {
            refused.withLock { $0 = RefusedBody() }
            return
        }
        try file.check(head, resumed: resumed)
    }

    /// Never called: a download task writes its own file.
    func write(_ data: Data) throws {}

    func close(_ error: (any Error)?) {}

    /// URLSession wrote `total` bytes of `expected` (negative when unknown). Returns `false` to stop the
    /// transfer: a refused answer's body has passed the limit.
    func wrote(_ total: Int64, of expected: Int64) -> Bool {
        guard refusedBody == nil else { return total <= Int64(RefusedBody.limit) }
        progress?(TransferProgress(completedBytes: total, expectedBytes: expected >= 0 ? expected : nil))
        return true
    }

    /// The task finished its file at `location`: kept for an accepted answer, read for a refused one.
    /// - Parameters:
    ///   - head: The answer the file is the body of.
    ///   - journalName: The task's journal entry name, for a file staged at once.
    func finished(at location: URL, head: HTTPURLResponse? = nil, journalName: String? = nil) throws {
        guard refusedBody != nil else {
            try file.adopt(location, head: head, journalName: journalName)
            return
        }
        defer { try? FileManager.default.removeItem(at: location) }
        let body = RefusedBody(readingFrom: location)
        refused.withLock { $0 = body }
    }
}
