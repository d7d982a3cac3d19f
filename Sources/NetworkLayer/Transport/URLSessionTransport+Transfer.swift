import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An attempt timed between bytes: a stream, an upload, a download's window. Its task feeds the sink as
/// the body arrives, watched by the transfer's idle timeout and total deadline; the caller waits for the
/// sink's answer (the head, for a stream).
extension URLSessionTransport {
    func transfer(
        _ request: URLRequest, upload: Upload?, into sink: ResponseSink, rules: AttemptRules,
        record: AttemptRecord, on transfers: DelegateSession
    ) async throws -> (Data, HTTPURLResponse) {
        var request = request
        var note: BackgroundTasks.Note?
        var (idleTimeout, deadline) = (Optional(rules.timeout), rules.deadline)
        // A background upload goes on while the app is suspended and reports nothing meanwhile:
        // URLSession's own timeout watches it, not the provider's timers (uptime runs on while the app is
        // suspended, and they would cancel it when it wakes).
        if transfers.isBackground {
            request = try backgroundRequest(request, endpoint: rules.endpoint)
            request.timeoutInterval = SessionWrittenDownload.idleTimeoutInterval(rules.timeout)
            note = upload.map { .upload(endpoint: rules.endpoint, body: $0.body) }
            (idleTimeout, deadline) = (nil, nil)
        }
        var sent: TransferHandler.Progress?
        if let upload, upload.progress != nil { sent = { counts in upload.report(sent: counts.sent) } }
        let handler = TransferHandler(
            sink: sink, idleTimeout: idleTimeout, deadline: deadline, deadlines: seams.deadlines,
            startedAt: rules.startedAt, progress: sent)
        // A stream's reader that leaves stops the transfer.
        if case .stream(let channel) = sink.destination {
            channel.onStop { [weak handler] in handler?.fail(CancellationError()) }
        }
        // An upload's bytes sent count however it ends.
        defer { if upload != nil { record.sent(handler.counts.sent) } }
        return try await Timeout.untimed { [request, note] finish in
            sink.answers(to: finish)
            transfers.start(request, uploading: upload?.body, note: note, handler: handler)
            return { handler.fail(CancellationError()) }
        }
    }
}
