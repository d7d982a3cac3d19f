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
    /// One attempt of a whole-body request: the body, at most `rules.limit` bytes for a status
    /// `rules.accepts` (a refused one's first bytes), racing `rules.attemptTimeout`.
    func data(
        _ request: URLRequest, rules: AttemptRules, record: AttemptRecord
    ) async throws -> (Data, HTTPURLResponse)

    /// One attempt of a stream: its head and, for an accepted status, the body to read as it arrives; a
    /// refused one's first bytes.
    func stream(
        _ request: URLRequest, rules: AttemptRules, record: AttemptRecord
    ) async throws -> StreamAttempt

    /// One attempt of an upload of `body`, `size` bytes, collecting the answer as ``data(_:rules:record:)``
    /// does.
    // swift-format-ignore: FunctionParameterCount
    func upload(
        _ request: URLRequest, body: UploadBody, size: Int64, rules: AttemptRules,
        progress: (@Sendable (TransferProgress) -> Void)?, record: AttemptRecord
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

/// What a stream's attempt answered: the head, a refused status's first bytes (or what a session that
/// returns bodies whole returned), and the body to read.
struct StreamAttempt {
    let data: Data
    let head: HTTPURLResponse
    let body: StreamBody?
}
