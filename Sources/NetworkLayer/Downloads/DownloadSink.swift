import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The statuses a download accepts: its endpoint's, and `206 Partial Content` wherever `200` is, since a
/// download asks for ranges itself (windows, resumes).
struct DownloadStatusCodes: StatusCodeSet {
    let endpoint: any StatusCodeSet

    init(_ endpoint: any StatusCodeSet) {
        self.endpoint = endpoint
    }

    func contains(_ statusCode: Int) -> Bool {
        endpoint.contains(statusCode) || (statusCode == 206 && endpoint.contains(200))
    }
}

/// Ends a refused download's transfer once its error body's first MiB is kept.
struct RefusedBodyKept: Error {}

/// Writes a successful attempt's body into the download's file, or keeps a refused one's in memory.
final class DownloadSink: TransferSink, Sendable {
    private let file: ProviderWrittenFile
    private let accepts: any StatusCodeSet
    private let progress: (@Sendable (TransferProgress) -> Void)?
    private let refused = Locked<RefusedBody?>(nil)

    init(
        file: ProviderWrittenFile, accepts: any StatusCodeSet,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) {
        self.file = file
        self.accepts = accepts
        self.progress = progress
    }

    /// The first bytes of a refused status's body (``RefusedBody``).
    var refusedBody: Data? { refused.withLock { $0?.bytes } }

    func open(_ head: HTTPURLResponse) throws {
        guard accepts.contains(head.statusCode) else {
            refused.withLock { $0 = RefusedBody() }
            return
        }
        try file.open(head)
        progress?(file.progress)
    }

    func write(_ data: Data) throws {
        let keptInMemory = refused.withLock { body -> Bool? in body?.append(data) }
        if let isFull = keptInMemory {
            if isFull { throw RefusedBodyKept() }
            return
        }
        try file.write(data)
        progress?(file.progress)
    }

    /// A transfer that failed closes the file (a resume opens it again, checked); one that ended
    /// well leaves it open for the next window, or for ``ProviderWrittenFile/finishWriting()``.
    func close(_ error: (any Error)?) {
        if error != nil { file.close() }
    }
}
