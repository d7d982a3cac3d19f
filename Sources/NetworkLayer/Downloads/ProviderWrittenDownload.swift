import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A download whose body the provider writes into a partial file as it arrives
/// (``ProviderWrittenFile``), over any transport: each attempt waits for the writes of the one before,
/// then asks for the missing bytes, a window at a time where the transport has windows
/// (``windows(_:record:)``).
final class ProviderWrittenDownload: DownloadStrategy {
    let file: ProviderWrittenFile
    let transport: any Transport
    /// The download's rules, with no size limit: it goes to disk.
    let rules: AttemptRules
    /// The most bytes a `GET`'s transfer asks for at once; `nil` for the whole body in one.
    let window: Int64?
    let progress: (@Sendable (TransferProgress) -> Void)?

    /// - Parameters:
    ///   - destination: Where the file goes; its partial file is made beside it.
    ///   - writeChunk: Writes one chunk (tests inject a failing one); `write(2)` by default.
    ///   - transport: What sends each transfer.
    ///   - rules: The endpoint's rules.
    ///   - window: The most bytes a `GET`'s transfer asks for at once; `nil` for no windows.
    ///   - progress: Called as the file grows.
    // swift-format-ignore: FunctionParameterCount
    init(
        destination: URL, writeChunk: (@Sendable (Data, Int32) -> NetworkError?)?, transport: any Transport,
        rules: AttemptRules, window: Int64?, progress: (@Sendable (TransferProgress) -> Void)?
    ) {
        file = ProviderWrittenFile(destination: destination, writeChunk: writeChunk)
        self.transport = transport
        self.rules = rules.unlimited
        self.window = window
        self.progress = progress
    }

    func attempt(_ request: URLRequest, record: AttemptRecord) async throws -> (Data, HTTPURLResponse) {
        try Task.checkCancellation()
        // A retry by a middleware resumes after every byte of the attempt before it is written, and not
        // into a disk that refused them.
        if let failedWrite = await file.beginAttempt() { throw failedWrite }
        return try await windows(NetworkProvider.uncompressed(request), record: record)
    }

    func beginAttempt() async -> NetworkError? { await file.beginAttempt() }

    var completeHead: HTTPURLResponse? { file.completeHead }

    var canResume: Bool { file.canResume }

    func takeRestart() -> Bool { file.takeRestart() }

    func finishWriting() async throws { try await file.finishWriting() }

    func place(at destination: URL) throws -> Int64 {
        let byteCount = file.progress.completedBytes
        try file.move(to: destination)
        return byteCount
    }

    func discard() async { await file.discard() }
}
