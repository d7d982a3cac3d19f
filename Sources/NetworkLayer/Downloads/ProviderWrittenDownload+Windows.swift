import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A download's attempt over any transport: the missing bytes asked for a window at a time
/// (``NetworkProvider/Configuration/downloadWindow``, on a `URLSession`) or all at once, each transfer
/// feeding a ``ResponseSink`` that writes into the file.
extension ProviderWrittenDownload {
    /// Asks for the file's missing bytes, a window at a time for a `GET`, until the body is complete, a
    /// transfer is refused or fails; returns the last answer's head (and a refused body).
    func windows(_ request: URLRequest, record: AttemptRecord) async throws -> (Data, HTTPURLResponse) {
        // Only a GET is asked for in windows (a resume asks again whatever the method).
        let window = (request.httpMethod ?? "GET").uppercased() == "GET" ? window : nil
        // The total deadline counts from the attempt's start, across its windows.
        var rules = rules
        rules.startedAt = DeadlineTimer.now
        var answered = false
        // The bytes of the windows before, and the transfer under way: counted however it ends.
        var received: Int64 = 0
        var current: ResponseSink?
        defer { record.received(received + (current?.received ?? 0)) }
        while true {
            try Task.checkCancellation()
            let sink = ResponseSink(
                .file(file, progress: progress), rules: rules, method: request.httpMethod,
                record: answered ? nil : record)
            current = sink
            let (refused, head) = try await transport.send(
                file.request(resuming: request, window: window), upload: nil, into: sink, rules: rules,
                record: record)
            answered = true
            received += sink.received
            current = nil
            if sink.isRefused {
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
