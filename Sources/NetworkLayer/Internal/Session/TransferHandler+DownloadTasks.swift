import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A download task's events. URLSession writes the body to a file of its own and says how much it has
/// written; the head comes with the first write on Apple platforms, and only with the finished file on
/// Linux (measured).
extension TransferHandler {
    /// URLSession wrote `total` bytes of `expected` (negative when unknown): activity, progress, and the
    /// head if it has come.
    func wrote(_ total: Int64, of expected: Int64, response: URLResponse?) {
        if let response, !deliverHeadOnce(response) { return }
        let active = state.withLock { state -> Bool in
            guard state.end == nil else { return false }
            state.lastActivity = DeadlineTimer.now
            state.counts.received = total
            return true
        }
        if active { (sink as? DownloadTaskSink)?.wrote(total, of: expected) }
    }

    /// The task finished its file at `location`, which URLSession deletes once this returns: the sink
    /// moves or reads it now.
    func finished(at location: URL, response: URLResponse?) {
        guard let response, deliverHeadOnce(response), let sink = sink as? DownloadTaskSink else {
            try? FileManager.default.removeItem(at: location)
            return
        }
        do {
            try sink.finished(at: location)
        } catch {
            fail(error)
        }
    }

    /// Hands the head over unless it has been already. Returns whether the body is still wanted. A
    /// challenged `401` is not held as a data task's is: a download task reports no head before its
    /// challenge is answered.
    private func deliverHeadOnce(_ response: URLResponse) -> Bool {
        guard !state.withLock({ $0.head != nil }) else { return !hasEnded }
        guard let head = response as? HTTPURLResponse else {
            fail(URLError(.badServerResponse))
            return false
        }
        return deliver(head)
    }
}
