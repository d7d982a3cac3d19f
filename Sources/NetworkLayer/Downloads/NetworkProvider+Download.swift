import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkProvider {
    /// Sends `endpoint` and writes its body to `destination`, never holding it whole in memory.
    ///
    /// The finished body is moved into place in one step, replacing any file at `destination`.
    ///
    /// On Apple platforms, by default, URLSession writes the body to a file of its own with a download
    /// task, and a download that drops or stalls (past the endpoint's timeout, URLSession's own there)
    /// resumes from the resume data URLSession leaves, up to `resumeAttempts` times; a resumed `206`
    /// without the strong validator of the answer it continues starts the file over. A resume sends the
    /// request URLSession saved with its resume data, not the one the middlewares make for that attempt.
    /// The endpoint's `deadline` ends such a download without resuming it. On a background session
    /// (``init(sessionConfiguration:delegate:delegateQueue:middlewares:configuration:sendsCredentialHeaders:finishedInBackground:)``)
    /// the deadline is ignored, and the file is staged beside `destination` as soon as URLSession hands it
    /// over (the app may be suspended before the caller runs again); it replaces the file at
    /// `destination` only once the status check and the middlewares accepted the answer.
    ///
    /// Otherwise the body is written to a hidden file beside `destination` as it arrives.
    /// On Linux (or with a ``Configuration/downloadWindow`` set), a `GET` through a `URLSession` is
    /// asked for in windows of that many bytes (`Range`), one request after another, from servers
    /// that serve ranges, so no more than about two windows wait in memory for the disk. When the
    /// connection drops (or goes idle past the endpoint's timeout) after some bytes arrived and the
    /// server supports ranges (`Accept-Ranges: bytes` or a `206`) with a strong validator (a strong
    /// `ETag`, or without an `ETag` a `Last-Modified` at least a second older than the answer's `Date`),
    /// the download resumes with `Range` and `If-Range`, asking only for the missing bytes, up to
    /// `resumeAttempts` times; a server that answers `200` instead starts the file over. A connection
    /// that drops or stalls after the last byte (the announced total; without one, a `416` to the resume
    /// saying there is no more) completes the download instead. Every attempt
    /// goes through the middlewares, which see an empty body for a successful status. A refused status
    /// throws ``NetworkError/unacceptableStatus(_:)`` with the body's first MiB (with a download task, no
    /// body once it passes 1 MiB), and writes no file.
    ///
    /// ```swift
    /// let file = try await provider.download(api.trailer(id), to: trailerURL) { progress in
    ///     print(progress.fractionCompleted ?? 0)
    /// }
    /// ```
    /// - Parameters:
    ///   - endpoint: The endpoint to send.
    ///   - destination: The file to write; its folder must exist.
    ///   - resumeAttempts: How many times to resume after a dropped connection; 3 by default.
    ///   - progress: Called as bytes arrive (in windows, they are written to the file later, in
    ///     order), on the thread that receives them (the delegate session's queue with a `URLSession`),
    ///     not the caller's; `nil` by default.
    /// - Returns: The file and the response.
    /// - Throws: ``NetworkError`` (``NetworkError/file(_:)`` when the file cannot be written,
    ///   ``NetworkError/InvalidRequest/rangeInDownload(endpoint:)`` when the endpoint sets its own `Range`), or
    ///   `CancellationError` when the calling task is cancelled. The partial file is removed (on Apple
    ///   platforms, one URLSession keeps for resume data stays in the app's temporary folder until the
    ///   system clears it).
    public func download<Response>(
        _ endpoint: Endpoint<Response>,
        to destination: URL,
        resumeAttempts: Int = 3,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> DownloadedFile {
        try await download(
            endpoint, to: destination, resumeData: nil, resumeAttempts: resumeAttempts, progress: progress)
    }

    /// Goes on with a download a background report says stopped (the user force-quit the app, the
    /// system cancelled it), from the resume data URLSession left in ``BackgroundTransfer/resumeData``,
    /// asking only for the missing bytes; as ``download(_:to:resumeAttempts:progress:)`` does in every
    /// other way. Without resume data, with resume data URLSession cannot use (stale: a failure that is
    /// not transient), or on Linux (FoundationNetworking has none), the download starts over; a
    /// transient failure of the resumed download is thrown, not answered by fetching the file again.
    ///
    /// ```swift
    /// // In `finishedInBackground`, or later from what it saved: `trailer` is the endpoint the download
    /// // was of, `file` its destination.
    /// if transfer.cancellationReason == .userForceQuitApplication, transfer.resumeData != nil {
    ///     _ = try await downloads.download(trailer, to: file, resuming: transfer)
    /// }
    /// ```
    /// - Parameters:
    ///   - endpoint: The endpoint the stopped download was of.
    ///   - destination: The file to write; its folder must exist.
    ///   - transfer: The report of the stopped download.
    ///   - resumeAttempts: How many times to resume after a dropped connection; 3 by default.
    ///   - progress: Called as bytes arrive; `nil` by default.
    /// - Returns: The file and the response.
    /// - Throws: As ``download(_:to:resumeAttempts:progress:)``.
    public func download<Response>(
        _ endpoint: Endpoint<Response>,
        to destination: URL,
        resuming transfer: BackgroundTransfer,
        resumeAttempts: Int = 3,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> DownloadedFile {
        guard let resumeData = transfer.resumeData else {
            return try await download(
                endpoint, to: destination, resumeAttempts: resumeAttempts, progress: progress)
        }
        do {
            return try await download(
                endpoint, to: destination,
                resumeData: (
                    resumeData, RangeRules.strongValidator(in: transfer.response?.headerFields ?? [:])
                ),
                resumeAttempts: resumeAttempts, progress: progress)
        } catch let error as NetworkError where Self.isUnusableResume(error) && !Task.isCancelled {
            // Resume data URLSession could not use: the download starts over.
            return try await download(
                endpoint, to: destination, resumeAttempts: resumeAttempts, progress: progress)
        }
    }

    /// Whether a resumed download's failure says URLSession could not use the resume data: a transport
    /// failure that is neither a cancellation nor transient (a dropped connection is thrown, not answered
    /// by fetching the whole file again).
    static func isUnusableResume(_ error: NetworkError) -> Bool {
        guard case .transport(let failure) = error else { return false }
        return failure.code != .cancelled && !error.isTransient
    }

    private func download<Response>(
        _ endpoint: Endpoint<Response>, to destination: URL, resumeData: (Data, String?)?,
        resumeAttempts: Int,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> DownloadedFile {
        // The download asks for ranges itself: a caller's own would be replaced by a window, or its `206`
        // taken for a broken resume. Refused before anything is asked for.
        if endpoint.headers.keys.contains(where: { $0.isHeaderName("Range") }) {
            throw NetworkError.invalidRequest(.rangeInDownload(endpoint: endpoint.name))
        }
        // A `206` answers the download's own `Range`: accepted wherever a `200` would be.
        var endpoint = endpoint
        endpoint.acceptableStatusCodes = DownloadStatusCodes(endpoint.acceptableStatusCodes)
        let request = try endpoint.makeRequest()
        let context = endpoint.context
        let rules = endpoint.rules(defaultLimit: configuration.maximumResponseSize)
        return try await observing(request, context: context) {
            let strategy = try transport.download(request, to: destination, rules: rules, progress: progress)
            if let (data, validator) = resumeData { strategy.resume(from: data, validator: validator) }
            return try await run(
                strategy, endpoint, request, context: context, to: destination, resumeAttempts: resumeAttempts
            )
        }
    }
}
