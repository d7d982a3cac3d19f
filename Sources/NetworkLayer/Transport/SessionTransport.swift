import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport over any ``NetworkSessionType`` other than `URLSession` (``StubSession``,
/// ``RecordReplaySession``, an app's own): the session returns each body whole, and every call is made of
/// whole-body calls, checked against the same rules as on a `URLSession`.
///
/// Each body is fed to the attempt's ``ResponseSink`` as it would arrive from a `URLSession` in one
/// piece: a stream yields it as one chunk; an upload reads its file into memory; a download writes it
/// to its file, resuming with `Range` as on a `URLSession`.
final class SessionTransport: Transport {
    let session: any NetworkSessionType
    private let calls: WholeBodyCalls
    private let seams: NetworkProvider.Seams

    init(session: any NetworkSessionType, calls: WholeBodyCalls, seams: NetworkProvider.Seams) {
        self.session = session
        self.calls = calls
        self.seams = seams
    }

    var background: BackgroundTasks? { nil }

    func runningTransfers() async -> [RunningTransfer] { [] }

    func invalidate() {}

    func send(
        _ request: URLRequest, upload: Upload?, into sink: ResponseSink, rules: AttemptRules,
        record: AttemptRecord
    ) async throws -> (Data, HTTPURLResponse) {
        // A caller already cancelled is told so as the session would tell it, before anything is sent.
        try Task.checkCancellation()
        var request = request
        if let upload { request.httpBody = try upload.body.bytes() }
        // Only a body kept whole can be shared: a stream's or a file's goes to one caller's destination.
        let shares: Bool
        if upload == nil, case .whole = sink.destination { shares = true } else { shares = false }
        let answer = try await calls.call(request, rules: rules, record: record, shares: shares) {
            [session] request, _, finish in
            sink.answers(to: finish)
            let work = startTask {
                do {
                    let (data, head) = try await session.response(for: request)
                    sink.receive(head, body: data)
                } catch {
                    sink.close(NetworkProvider.sessionFailure(error))
                }
            }
            // Stopping closes the sink too: a session that ignores cancellation and answers late
            // reaches no file and no reader, and the caller is answered at once.
            return {
                work.cancel()
                sink.close(CancellationError())
            }
        }
        if let upload {
            record.sent(upload.size)
            upload.report(sent: upload.size)
        }
        return answer
    }

    func download(
        _ request: URLRequest, to destination: URL, rules: AttemptRules,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) throws -> any DownloadStrategy {
        // The session returns the body whole: windows would bound nothing.
        ProviderWrittenDownload(
            destination: destination, writeChunk: seams.downloadWrites, transport: self, rules: rules,
            window: nil, progress: progress)
    }
}
