import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A download or an upload of the provider's background session still under way: one a caller in this
/// process waits for, or one started before the app was terminated and relaunched, which the session
/// kept running. ``NetworkProvider/runningTransfers()`` lists them.
///
/// ```swift
/// for transfer in await downloads.runningTransfers() where transfer.endpoint == "GET trailer" {
///     transfer.cancel()
/// }
/// ```
public struct RunningTransfer: Sendable {
    /// The name of the endpoint that was sent (``Endpoint/name``).
    public let endpoint: String
    /// A download and its destination, or an upload.
    public let kind: BackgroundTransfer.Kind
    /// The bytes received (a download) or sent (an upload) when it was listed, and the total when
    /// known.
    public let progress: TransferProgress
    private let task: TaskHandle

    /// The transfer `task` is, or `nil` for a task NetworkLayer did not start (no note it can read), a
    /// download naming no destination, or one that has ended.
    init?(_ task: TaskHandle) {
        guard let note = BackgroundTasks.Note(decoding: task.task.taskDescription),
            task.task.state == .running || task.task.state == .suspended
        else { return nil }
        let isDownload = task.task is URLSessionDownloadTask
        if isDownload {
            guard let destination = note.destinationURL else { return nil }
            kind = .download(destination: destination)
            progress = Self.progress(
                task.task.countOfBytesReceived, of: task.task.countOfBytesExpectedToReceive)
        } else {
            kind = .upload
            progress = Self.progress(task.task.countOfBytesSent, of: task.task.countOfBytesExpectedToSend)
        }
        endpoint = note.endpoint
        self.task = task
    }

    /// Cancels the transfer. A caller waiting for it fails with `CancellationError` when its own task was
    /// cancelled, and ``NetworkError/transport(_:)`` with `URLError(.cancelled)` otherwise; one started
    /// before a relaunch is reported to `finishedInBackground` with that error, and a download's partial
    /// file is not kept.
    public func cancel() {
        task.task.cancel()
    }

    private static func progress(_ completed: Int64, of expected: Int64) -> TransferProgress {
        TransferProgress(completedBytes: max(0, completed), expectedBytes: expected > 0 ? expected : nil)
    }
}

extension NetworkProvider {
    /// The transfers of the provider's background session still under way, in no particular order: made
    /// again at launch with the session's identifier, the provider finds the ones started before the app
    /// was terminated. Empty for a provider on any other session.
    /// - Returns: Each transfer NetworkLayer started on the session, with its endpoint, destination and
    ///   progress; cancel it through ``RunningTransfer/cancel()``.
    public func runningTransfers() async -> [RunningTransfer] {
        await transport.runningTransfers()
    }
}
