import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What sends one attempt of a request, below the middlewares: chosen once, when the provider is made.
///
/// ``URLSessionTransport`` owns a `URLSession` (the provider's own delegate session, a background
/// session's handling); ``SessionTransport`` sends through any other ``NetworkSessionType``, which returns
/// bodies whole. Every public call of the provider has one path, over whichever it has; each call writes
/// what it measured (the head's arrival, the bytes) to the ``AttemptRecord`` it is given.
protocol Transport: Sendable {
    /// One attempt: sends `request` (with `upload`'s body, when given) and feeds its answer into `sink`,
    /// which decides whether the status is accepted. Returns the sink's answer: the head, with the whole
    /// body, or a refused status's first bytes (nothing for an accepted stream or file, whose body went
    /// to its destination).
    func send(
        _ request: URLRequest, upload: Upload?, into sink: ResponseSink, rules: AttemptRules,
        record: AttemptRecord
    ) async throws -> (Data, HTTPURLResponse)

    /// How a download of `request` into `destination` runs its attempts.
    /// - Throws: What refuses the download before any attempt (a background session given to
    ///   ``NetworkProvider/init(session:middlewares:configuration:)``, a destination folder that is missing
    ///   for a download task).
    func download(
        _ request: URLRequest, to destination: URL, rules: AttemptRules,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) throws -> any DownloadStrategy

    /// The background session's tasks, when the transport runs one.
    var background: BackgroundTasks? { get }

    /// The background session's transfers still under way; none for any other session.
    func runningTransfers() async -> [RunningTransfer]

    /// Lets running transfers finish and releases what the transport made.
    func invalidate()

    /// `request` as the transport will send it: with the header fields and cookies it adds below the
    /// pipeline (the HTTP cache keys, partitions and compares `Vary` on this); `request` itself unless
    /// the transport adds any.
    func asSent(_ request: URLRequest) -> URLRequest
}

extension Transport {
    func asSent(_ request: URLRequest) -> URLRequest { request }
}

/// What an upload sends, and who hears of its progress.
struct Upload: Sendable {
    let body: UploadBody
    /// The body's size in bytes.
    let size: Int64
    let progress: (@Sendable (TransferProgress) -> Void)?

    /// Reports that `sent` bytes of the body went out.
    func report(sent: Int64) {
        progress?(TransferProgress(completedBytes: sent, expectedBytes: size))
    }
}
