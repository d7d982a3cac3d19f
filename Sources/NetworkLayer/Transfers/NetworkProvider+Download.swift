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
    /// the deadline is ignored, and the file is put in place as soon as URLSession hands it over, before
    /// the middlewares and the status check see the answer.
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
    ///     order), on the thread that receives them (the transfer session's queue with a `URLSession`),
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
        // The download asks for ranges itself: a caller's own would be replaced by a window, or its `206`
        // taken for a broken resume. Refused before anything is asked for.
        if endpoint.headers.keys.contains(where: { $0.caseInsensitiveCompare("Range") == .orderedSame }) {
            throw NetworkError.invalidRequest(.rangeInDownload(endpoint: endpoint.name))
        }
        // A `206` answers the download's own `Range`: accepted wherever a `200` would be.
        var endpoint = endpoint
        endpoint.acceptableStatusCodes = DownloadStatusCodes(endpoint.acceptableStatusCodes)
        let request = try endpoint.makeRequest()
        let context = endpoint.context
        return try await observing(request, context: context) {
            if let urlSession = session as? URLSession {
                let transfers = try transfers(for: urlSession, endpoint: endpoint.name)
                if transfers.isBackground
                    || (configuration.downloadsWithTasks && (configuration.downloadWindow ?? 0) < 1)
                {
                    return try await downloadWithTasks(
                        endpoint, request, context: context, to: destination, resumeAttempts: resumeAttempts,
                        progress: progress, on: transfers)
                }
            }
            return try await download(
                endpoint, request, context: context, to: destination, resumeAttempts: resumeAttempts,
                progress: progress)
        }
    }

    // swift-format-ignore: FunctionParameterCount
    private func download<Response>(
        _ endpoint: Endpoint<Response>, _ request: URLRequest, context: RequestContext, to destination: URL,
        resumeAttempts: Int, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> DownloadedFile {
        let file = DownloadFile(destination: destination, writeChunk: configuration.downloadWrites)
        var resumes = 0
        while true {
            do {
                let transport = downloadTransport(for: endpoint, into: file, progress: progress)
                let (body, head) = try await exchange(request, context: context, transport: transport)
                try await file.finishWriting()
                try endpoint.checkStatus(of: head, body: body)
                let byteCount = file.progress.completedBytes
                try file.move(to: destination)
                return DownloadedFile(
                    url: destination, response: head, byteCount: byteCount, resumeCount: resumes)
            } catch {
                // Decided before waiting for the writes: a cancelled or failed download drops its backlog
                // (unless every byte may have arrived).
                let mayBeComplete = Self.isDropOrStall(error) && file.completeHead != nil
                guard !Task.isCancelled, Self.mayResume(after: error),
                    resumes < resumeAttempts || mayBeComplete
                else {
                    await file.discard()
                    throw error
                }
                // A write that failed as the transfer ended another way is the error to report.
                if let failedWrite = await file.beginAttempt() {
                    await file.discard()
                    throw failedWrite
                }
                // Every byte of the announced total arrived before the connection dropped or stalled: the
                // download is complete.
                if Self.isDropOrStall(error), let head = file.completeHead {
                    do {
                        try await file.finishWriting()
                        try file.move(to: destination)
                    } catch {
                        await file.discard()
                        throw error
                    }
                    return DownloadedFile(
                        url: destination, response: head, byteCount: file.progress.completedBytes,
                        resumeCount: resumes)
                }
                guard resumes < resumeAttempts else {
                    await file.discard()
                    throw error
                }
                guard file.canResume || file.takeRestart() else {
                    await file.discard()
                    throw error
                }
                resumes += 1
            }
        }
    }

    /// `request` asking for the representation uncompressed, unless it says otherwise: ranges count bytes
    /// of the representation as sent, so a resumed file is the same bytes whatever the server's encoding.
    static func uncompressed(_ request: URLRequest) -> URLRequest {
        var request = request
        if request.value(forHTTPHeaderField: "Accept-Encoding") == nil {
            request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        }
        return request
    }

    /// Whether a failure ends a transfer without saying its bytes were wrong: a timeout or a transport
    /// failure worth resuming, unless the provider or URLSession refused the body itself (bytes past the
    /// range asked for, a body that could not be decoded or parsed). After the last byte, such a failure
    /// leaves a complete file.
    static func isDropOrStall(_ error: any Error) -> Bool {
        guard mayResume(after: error) else { return false }
        if case NetworkError.transport(let error) = error {
            return ![
                .cannotParseResponse, .cannotDecodeContentData, .cannotDecodeRawData, .badServerResponse,
            ]
            .contains(error.code)
        }
        return true
    }

    /// Whether a failure is a dropped or stalled transfer worth resuming: a timeout, or a transport
    /// failure other than cancellation, a bad URL or a refused certificate (FoundationNetworking reports
    /// a connection closed early as `URLError(.unknown)`, "transfer closed with N bytes remaining").
    static func mayResume(after error: any Error) -> Bool {
        switch error {
        case NetworkError.timedOut: true
        case NetworkError.transport(let error):
            ![
                .cancelled, .badURL, .unsupportedURL, .serverCertificateUntrusted,
                .serverCertificateHasBadDate,
                .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .secureConnectionFailed,
            ].contains(error.code)
        default: false
        }
    }

    /// One attempt: the request (resuming when it can) and its body written into `file`, in windows
    /// through a `URLSession`; a refused status's body is kept in memory instead, for the error.
    private func downloadTransport<Response>(
        for endpoint: Endpoint<Response>, into file: DownloadFile,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) -> NetworkMiddleware.Next {
        { [self] request in
            try Task.checkCancellation()
            // A retry by a middleware resumes after every byte of the attempt before it is written, and
            // not into a disk that refused them.
            if let failedWrite = await file.beginAttempt() { throw failedWrite }
            var request = Self.uncompressed(request)
            guard let urlSession = session as? URLSession else {
                request = file.request(resuming: request)
                let sink = DownloadSink(
                    file: file, accepts: endpoint.acceptableStatusCodes, progress: progress)
                // A download goes to disk: no size limit, as on a URLSession.
                let (data, head) = try await dataTransport(
                    timeout: endpoint.attemptTimeout,
                    rules: WholeBodyRules(
                        limit: .max, accepts: endpoint.acceptableStatusCodes, endpoint: endpoint.name)
                )(request)
                try sink.open(head)
                do {
                    try sink.write(data)
                } catch is RefusedBodyKept {
                    // A refused body over the limit: its first MiB is kept.
                }
                sink.close(nil)
                if let complete = file.completed(by: head) { return (Data(), complete) }
                return (sink.refusedBody ?? Data(), head)
            }
            return try await downloadWindows(
                request, of: endpoint, on: dataTransfers(for: urlSession, endpoint: endpoint.name),
                into: file,
                progress: progress)
        }
    }

    /// Asks for `file`'s missing bytes, a window at a time for a `GET`, until the body is complete, a
    /// window is refused or the transfer fails; returns the last answer's head (and a refused body).
    private func downloadWindows<Response>(
        _ request: URLRequest, of endpoint: Endpoint<Response>, on transfers: TransferSession,
        into file: DownloadFile, progress: (@Sendable (TransferProgress) -> Void)?
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
        defer { CurrentAttempt.received(received + (current?.counts.received ?? 0)) }
        while true {
            try Task.checkCancellation()
            let sink = DownloadSink(file: file, accepts: endpoint.acceptableStatusCodes, progress: progress)
            let handler = TransferHandler(
                sink: sink, idleTimeout: endpoint.timeout, deadline: endpoint.deadline,
                deadlines: configuration.deadlines, startedAt: attemptStart, progress: nil)
            current = handler
            transfers.start(file.request(resuming: request, window: window), handler: handler)
            let head = try await handler.head()
            if !answered { CurrentAttempt.responseStarted() }
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
