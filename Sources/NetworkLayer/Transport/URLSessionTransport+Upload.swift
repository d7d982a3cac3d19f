import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An upload's attempt: an upload task from a file or from memory, its answer collected as a whole
/// body's is (bounded, a refused status's first MiB kept).
extension URLSessionTransport {
    // swift-format-ignore: FunctionParameterCount
    func upload(
        _ request: URLRequest, body: UploadBody, size: Int64, rules: AttemptRules,
        progress: (@Sendable (TransferProgress) -> Void)?, record: AttemptRecord
    ) async throws -> (Data, HTTPURLResponse) {
        var sent: TransferHandler.Progress?
        if let progress {
            sent = { counts in progress(TransferProgress(completedBytes: counts.sent, expectedBytes: size)) }
        }
        let (answers, answered) = AsyncStream<BodyCollector.Outcome>.makeStream(
            bufferingPolicy: .bufferingNewest(1))
        let collector = BodyCollector(limit: rules.limit, accepts: rules.accepts, method: request.httpMethod)
        {
            outcome in
            answered.yield(outcome)
            answered.finish()
        }
        let transfers =
            if case .file = body {
                try transfers(endpoint: rules.endpoint)
            } else {
                try dataTransfers(endpoint: rules.endpoint)
            }
        // A background upload goes on while the app is suspended and reports nothing meanwhile:
        // URLSession's own timeout watches it, not the provider's timers (uptime runs on while the app is
        // suspended, and they would cancel it when it wakes).
        var request = request
        if transfers.isBackground {
            request = try backgroundRequest(request, endpoint: rules.endpoint)
            request.timeoutInterval = SessionWrittenDownload.idleTimeoutInterval(rules.timeout)
        }
        let handler = TransferHandler(
            sink: collector, idleTimeout: transfers.isBackground ? nil : rules.timeout,
            deadline: transfers.isBackground ? nil : rules.deadline, deadlines: seams.deadlines,
            progress: sent)
        transfers.start(
            request, uploading: body,
            note: transfers.isBackground ? .upload(endpoint: rules.endpoint, body: body) : nil,
            handler: handler)
        _ = try await handler.head()
        record.responseStarted()
        record.sent(handler.counts.sent)
        return try await withTaskCancellationHandler {
            var outcomes = answers.makeAsyncIterator()
            guard let outcome = await outcomes.next() else { throw CancellationError() }
            return try outcome.get()
        } onCancel: {
            handler.fail(CancellationError())
        }
    }
}
