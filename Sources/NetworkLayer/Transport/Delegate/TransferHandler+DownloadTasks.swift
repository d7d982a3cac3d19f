import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A download task's events. URLSession writes the body to a file of its own and says how much it has
/// written; the head comes with the first write on Apple platforms, and only with the finished file on
/// Linux (measured).
extension TransferHandler {
    /// URLSession wrote `bytes` more, `total` in all, of `expected` (negative when unknown): activity,
    /// progress, and the head if it has come. A refused answer's body past its limit stops the transfer.
    func wrote(_ bytes: Int64, total: Int64, of expected: Int64, response: URLResponse?) {
        if let response, !deliverHeadOnce(response) { return }
        let active = state.withLock { state -> Bool in
            guard state.end == nil else { return false }
            state.lastActivity = DeadlineTimer.now
            state.counts.received += bytes
            return true
        }
        guard active, let sink = sink as? DownloadTaskSink else { return }
        if !sink.wrote(total, of: expected) { fail(RefusedBodyKept()) }
    }

    /// The task finished its file at `location`, which URLSession deletes once this returns: the sink
    /// keeps or reads it now.
    /// `journalName` is the task's journal entry name (``BackgroundJournal/name(of:)``).
    func finished(at location: URL, response: URLResponse?, journalName: String? = nil) {
        guard let response, deliverHeadOnce(response), let sink = sink as? DownloadTaskSink else {
            try? FileManager.default.removeItem(at: location)
            return
        }
        do {
            try sink.finished(at: location, head: response as? HTTPURLResponse, journalName: journalName)
        } catch {
            fail(error)
        }
    }

    /// Hands the head over unless it has been already, or the transfer has ended. Returns whether the
    /// body is still wanted. A challenged `401` is not held as a data task's is: a download task reports
    /// no head before its challenge is answered.
    private func deliverHeadOnce(_ response: URLResponse) -> Bool {
        let (ended, hasHead) = state.withLock { ($0.end != nil, $0.head != nil) }
        guard !ended else { return false }
        guard !hasHead else { return true }
        guard let head = response as? HTTPURLResponse else {
            fail(URLError(.badServerResponse))
            return false
        }
        return deliver(head)
    }
}
