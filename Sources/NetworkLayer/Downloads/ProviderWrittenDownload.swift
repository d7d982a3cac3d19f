import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A download whose body the provider writes into a partial file as it arrives
/// (``ProviderWrittenFile``): each attempt waits for the writes of the one before, then asks its
/// transport for the missing bytes.
final class ProviderWrittenDownload: DownloadStrategy {
    /// Sends one attempt's request (already asking for identity encoding) and writes its body into the
    /// file: the transport's half of an attempt.
    typealias Fetch =
        @Sendable (URLRequest, ProviderWrittenFile, AttemptRecord) async throws -> (
            Data, HTTPURLResponse
        )

    private let file: ProviderWrittenFile
    private let fetch: Fetch

    /// - Parameters:
    ///   - destination: Where the file goes; its partial file is made beside it.
    ///   - writeChunk: Writes one chunk (tests inject a failing one); `write(2)` by default.
    ///   - fetch: The transport's half of an attempt.
    init(
        destination: URL, writeChunk: (@Sendable (Data, Int32) -> NetworkError?)?, fetch: @escaping Fetch
    ) {
        file = ProviderWrittenFile(destination: destination, writeChunk: writeChunk)
        self.fetch = fetch
    }

    func attempt(_ request: URLRequest, record: AttemptRecord) async throws -> (Data, HTTPURLResponse) {
        try Task.checkCancellation()
        // A retry by a middleware resumes after every byte of the attempt before it is written, and not
        // into a disk that refused them.
        if let failedWrite = await file.beginAttempt() { throw failedWrite }
        return try await fetch(NetworkProvider.uncompressed(request), file, record)
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
