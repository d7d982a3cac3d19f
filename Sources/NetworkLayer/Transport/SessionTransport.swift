import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport over any ``NetworkSessionType`` other than `URLSession` (``StubSession``,
/// ``RecordReplaySession``, an app's own): the session returns each body whole, and every call is made of
/// whole-body calls, checked against the same rules as on a `URLSession`.
///
/// A stream yields the body as one chunk; an upload reads its file into memory; a download writes the
/// body to its file after it arrives, resuming with `Range` as on a `URLSession`.
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

    func data(
        _ request: URLRequest, rules: AttemptRules, record: AttemptRecord
    ) async throws -> (Data, HTTPURLResponse) {
        // A caller already cancelled is told so as the session would tell it, before anything is sent.
        try Task.checkCancellation()
        return try await calls.call(request, rules: rules, record: record) {
            [session] request, rules, finish in
            let work = startTask {
                do {
                    let (data, head) = try await session.response(for: request)
                    guard rules.accepts.contains(head.statusCode) else {
                        // A refused status keeps its body's first bytes, as on a URLSession.
                        finish(.success((RefusedBody(data, capacity: rules.limit).bytes, head)))
                        return
                    }
                    if data.count > rules.limit { throw NetworkError.responseTooLarge(limit: rules.limit) }
                    finish(.success((data, head)))
                } catch {
                    finish(.failure(NetworkProvider.sessionFailure(error)))
                }
            }
            return { work.cancel() }
        }
    }

    func stream(
        _ request: URLRequest, rules: AttemptRules, record: AttemptRecord
    ) async throws -> StreamAttempt {
        let (data, head) = try await data(request, rules: rules, record: record)
        return StreamAttempt(data: data, head: head, body: StreamBody(channel: .holding(data)))
    }

    // swift-format-ignore: FunctionParameterCount
    func upload(
        _ request: URLRequest, body: UploadBody, size: Int64, rules: AttemptRules,
        progress: (@Sendable (TransferProgress) -> Void)?, record: AttemptRecord
    ) async throws -> (Data, HTTPURLResponse) {
        var request = request
        switch body {
        case .data(let data):
            request.httpBody = data
        case .file(let file):
            do {
                request.httpBody = try Data(contentsOf: file)
            } catch {
                throw NetworkError.file(error)
            }
        }
        let answer = try await data(request, rules: rules, record: record)
        record.sent(size)
        progress?(TransferProgress(completedBytes: size, expectedBytes: size))
        return answer
    }

    func download(
        _ request: URLRequest, to destination: URL, rules: AttemptRules,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) throws -> any DownloadStrategy {
        ProviderWrittenDownload(destination: destination, writeChunk: seams.downloadWrites) {
            request, file, record in
            let request = file.request(resuming: request)
            let sink = DownloadSink(file: file, accepts: rules.accepts, progress: progress)
            // A download goes to disk: no size limit, as on a URLSession.
            let (data, head) = try await self.data(request, rules: rules.unlimited, record: record)
            try sink.open(head)
            do {
                try sink.write(data)
            } catch is RefusedBodyKept {
                // A refused body over the limit: its first MiB is kept.
            }
            sink.close(nil)
            if let complete = file.completed(by: head) { return (Data(), complete) }
            if let refused = sink.refusedBody { return (refused, head) }
            // Asked for no window, the body is whole or cut short: a `206` or a `Content-Length` that
            // says more than arrived is a dropped connection, resumed or retried as on a URLSession.
            guard try file.ending() == .complete else { throw URLError(.networkConnectionLost) }
            return (Data(), head)
        }
    }
}
