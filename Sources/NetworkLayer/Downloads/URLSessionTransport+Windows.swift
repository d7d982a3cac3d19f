import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A download's attempt on data tasks: the missing bytes asked for a window at a time
/// (``NetworkProvider/Configuration/downloadWindow``), written into the file as they arrive.
extension URLSessionTransport {
    /// Asks for `file`'s missing bytes, a window at a time for a `GET`, until the body is complete, a
    /// window is refused or the transfer fails; returns the last answer's head (and a refused body).
    // swift-format-ignore: FunctionParameterCount
    func windows(
        _ request: URLRequest, rules: AttemptRules, on transfers: DelegateSession,
        into file: ProviderWrittenFile,
        progress: (@Sendable (TransferProgress) -> Void)?, record: AttemptRecord
    ) async throws -> (Data, HTTPURLResponse) {
        // Only a GET is asked for in windows (a resume asks again whatever the method, as before
        // windows); windows smaller than 64 KiB are raised to it.
        let window =
            (request.httpMethod ?? "GET").uppercased() == "GET"
            ? configuration.downloadWindow.flatMap { $0 > 0 ? max(Int64($0), 64 << 10) : nil } : nil
        let attemptStart = DeadlineTimer.now
        var answered = false
        // The bytes of the windows before, and the transfer under way: counted however it ends.
        var received: Int64 = 0
        var current: TransferHandler?
        defer { record.received(received + (current?.counts.received ?? 0)) }
        while true {
            try Task.checkCancellation()
            let sink = DownloadSink(file: file, accepts: rules.accepts, progress: progress)
            let handler = TransferHandler(
                sink: sink, idleTimeout: rules.timeout, deadline: rules.deadline, deadlines: seams.deadlines,
                startedAt: attemptStart, progress: nil)
            current = handler
            transfers.start(file.request(resuming: request, window: window), handler: handler)
            let head = try await handler.head()
            if !answered { record.responseStarted() }
            answered = true
            do {
                try await handler.end()
            } catch is RefusedBodyKept {
                // The refused body's first MiB is kept; the rest is not worth receiving.
            }
            received += handler.counts.received
            current = nil
            if let refused = sink.refusedBody {
                // A first window refused as unsatisfiable: an empty body, or ranges not served.
                if head.statusCode == 416, file.askedForFirstWindow {
                    file.refuseWindows()
                    continue
                }
                // A resume refused because the file already holds every byte: it is complete.
                if let complete = file.completed(by: head) {
                    try await file.flush()
                    return (Data(), complete)
                }
                return (refused, head)
            }
            switch try file.ending() {
            case .windowDone:
                // At most one window waits for the disk while the next arrives.
                try await file.settle(keepingAtMost: window ?? 0)
            case .totalUnknown:
                await file.startOver()
            case .complete:
                // The last chunks are written after the transfer ends: a full disk shows here, not as
                // a body cut short. The last answer is the one whose version the file holds.
                try await file.flush()
                return (Data(), head)
            case .cutShort:
                // A body cut short without an error from the transport is a dropped connection.
                throw URLError(.networkConnectionLost)
            }
        }
    }
}
