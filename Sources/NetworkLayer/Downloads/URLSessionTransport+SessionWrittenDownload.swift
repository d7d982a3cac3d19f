import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A download that URLSession writes itself: a download task per attempt, whose file is moved beside the
/// destination when it finishes, and a resume made from the resume data a dropped attempt left.
///
/// This is how a download without a window runs on Apple platforms, and every download of a background
/// session. FoundationNetworking's download tasks leave every file they write in the temporary folder (a
/// finished one after its delegate returns, a partial one after a drop) and give no resume data
/// (measured), so on Linux a download runs on data tasks (see
/// ``NetworkProvider/Configuration/downloadWindow``); the tests run this path there through
/// ``NetworkProvider/Seams/downloadsWithTasks``, resume data aside.
final class SessionWrittenDownload: DownloadStrategy {
    private let file: SessionWrittenFile
    private let destination: URL
    private let transfers: DelegateSession
    private let rules: AttemptRules
    private let deadlines: DeadlineTimer
    private let progress: (@Sendable (TransferProgress) -> Void)?
    /// `request` as the background session may send it (``URLSessionTransport/backgroundRequest(_:endpoint:)``).
    private let backgroundRequest: @Sendable (URLRequest) throws -> URLRequest

    /// - Throws: ``NetworkError/file(_:)`` when `destination`'s folder is missing: found before the body
    ///   is downloaded, as with a file the provider writes.
    init(
        to destination: URL, on transfers: DelegateSession, rules: AttemptRules, deadlines: DeadlineTimer,
        progress: (@Sendable (TransferProgress) -> Void)?,
        backgroundRequest: @escaping @Sendable (URLRequest) throws -> URLRequest
    ) throws {
        var isFolder: ObjCBool = false
        guard
            FileManager.default.fileExists(
                atPath: destination.deletingLastPathComponent().path, isDirectory: &isFolder),
            isFolder.boolValue
        else { throw NetworkError.file(POSIXError(.ENOENT)) }
        file = SessionWrittenFile(
            destination: destination, stagesAtOnce: transfers.isBackground,
            ledger: transfers.background.map {
                SessionWrittenFile.Ledger(background: $0, endpoint: rules.endpoint)
            })
        self.destination = destination
        self.transfers = transfers
        self.rules = rules
        self.deadlines = deadlines
        self.progress = progress
        self.backgroundRequest = backgroundRequest
    }

    /// One attempt: a download task for the request, or from the resume data the last attempt left.
    func attempt(_ request: URLRequest, record: AttemptRecord) async throws -> (Data, HTTPURLResponse) {
        try Task.checkCancellation()
        var request = NetworkProvider.uncompressed(request)
        // URLSession's own timeout watches for a stall, so that a stalled task leaves resume data; the
        // provider's timer keeps the total deadline.
        request.timeoutInterval = Self.idleTimeoutInterval(rules.timeout)
        if transfers.isBackground { request = try backgroundRequest(request) }
        let resumeData = file.takeResumeData()
        let sink = DownloadTaskSink(
            file: file, accepts: rules.accepts, resumed: resumeData != nil, progress: progress)
        // A background session's task goes on while the app is suspended, and uptime with it: the
        // provider's deadline would cancel it when the app wakes.
        let handler = TransferHandler(
            sink: sink, idleTimeout: nil, deadline: transfers.isBackground ? nil : rules.deadline,
            deadlines: deadlines, progress: nil)
        defer { record.received(handler.counts.received) }
        // On a background session, what a process without this caller needs to finish the task: a
        // resumed answer must carry the validator of the bytes it continues.
        let note =
            transfers.isBackground
            ? BackgroundTasks.Note(
                endpoint: rules.endpoint, destination: destination,
                validator: resumeData == nil ? nil : file.validator) : nil
        // On a background session, a task of an earlier launch to the same destination is joined, not
        // run twice.
        let joined =
            resumeData == nil ? await transfers.join(downloadTo: destination, handler: handler) : false
        if !joined {
            transfers.startDownload(request, resumingFrom: resumeData, note: note, handler: handler)
        }
        return try await Self.answer(
            of: handler, sink: sink, file: file, timeout: rules.timeout, record: record)
    }

    /// What an attempt's task ended with: the answer, with a refused status's body (none once it passed
    /// its limit), or the failure as the provider reports it, its resume data kept for the next attempt.
    static func answer(
        of handler: TransferHandler, sink: DownloadTaskSink, file: SessionWrittenFile, timeout: Duration,
        record: AttemptRecord? = nil
    ) async throws -> (Data, HTTPURLResponse) {
        do {
            // The head comes with the first bytes on Apple platforms, with the file on Linux.
            _ = try await handler.head()
            record?.responseStarted()
            try await handler.end()
        } catch is RefusedBodyKept {
            return (Data(), try await handler.head())
        } catch {
            throw failure(file.keepResumeData(of: error), timeout: timeout)
        }
        return (sink.refusedBody ?? Data(), try await handler.head())
    }

    /// What a download task's failure is reported as: URLSession's own idle timeout as the provider's,
    /// and a file URLSession could not write (a full disk) as ``NetworkError/file(_:)``, never resumed.
    static func failure(_ error: any Error, timeout: Duration) -> any Error {
        if let failure = error as? POSIXError { return NetworkError.file(failure) }
        if let failure = error as? CocoaError, failure.isFileError { return NetworkError.file(failure) }
        guard let failure = error as? URLError else { return error }
        switch failure.code {
        case .timedOut: return NetworkError.timedOut(timeout)
        case .cannotCreateFile, .cannotOpenFile, .cannotWriteToFile, .cannotCloseFile, .cannotMoveFile,
            .cannotRemoveFile:
            return NetworkError.file(failure)
        default: return failure
        }
    }

    /// `timeout` as URLSession's idle timeout: at least a millisecond, at most a week.
    static func idleTimeoutInterval(_ timeout: Duration) -> TimeInterval {
        min(max(0.001, timeout.timeInterval), TimeInterval(Endpoint<Data>.maximumTransportTimeout))
    }

    // Only resume data resumes: a download task keeps no partial file of its own otherwise, and writes
    // every byte it receives itself.
    func beginAttempt() async -> NetworkError? { nil }

    var completeHead: HTTPURLResponse? { nil }

    var canResume: Bool { file.canResume }

    func takeRestart() -> Bool { file.takeRestart() }

    func finishWriting() async throws {}

    func place(at destination: URL) throws -> Int64 { try file.move(to: destination) }

    func discard() async { file.discard() }

    func resume(from resumeData: Data, validator: String?) {
        file.seed(resumeData: resumeData, validator: validator)
    }
}
