import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a download's attempts run, for the one download loop (``NetworkProvider/run(_:_:_:context:to:resumeAttempts:)``):
/// - ``ProviderWrittenDownload``: the body written by the provider into a partial file as it arrives,
///   through a `URLSession`'s data tasks (in windows) or any other session's whole bodies;
/// - ``SessionWrittenDownload``: URLSession's download tasks, which write the file themselves (Apple
///   platforms, and every background session).
///
/// The transport chooses one (``Transport/download(_:to:rules:progress:)``); the loop decides when an
/// attempt resumes, restarts or ends.
protocol DownloadStrategy: Sendable {
    /// One attempt: the transport call the middlewares wrap. It asks for the missing bytes when the
    /// download can resume.
    func attempt(_ request: URLRequest, record: AttemptRecord) async throws -> (Data, HTTPURLResponse)

    /// Waits for the writes of the attempts before and returns the failure of one, to report instead of
    /// resuming; `nil` when they all succeeded.
    func beginAttempt() async -> NetworkError?

    /// The head of the last answer, when the file holds every byte of it: a transfer that dropped or
    /// stalled after its last byte is complete.
    var completeHead: HTTPURLResponse? { get }

    /// Whether the next attempt may ask for only the missing bytes.
    var canResume: Bool { get }

    /// Whether the last attempt got bytes of another version, so the next starts over; asking clears it.
    func takeRestart() -> Bool

    /// Waits until every byte received is in the file, and throws the failure of a write.
    func finishWriting() async throws

    /// Puts the finished file at `destination` in one step, replacing what is there. Returns its size.
    func place(at destination: URL) throws -> Int64

    /// Ends the download without a file: the partial file is removed.
    func discard() async

    /// Makes the first attempt go on from resume data URLSession left (a report of a transfer the
    /// system cancelled), whose answer carried `validator`. A strategy that cannot use it ignores it.
    func resume(from resumeData: Data, validator: String?)
}

extension DownloadStrategy {
    func resume(from resumeData: Data, validator: String?) {}
}

extension NetworkProvider {
    /// The one download loop: attempts through the middlewares until one is accepted and its file put in
    /// place, resuming (or starting over) after a dropped or stalled transfer up to `resumeAttempts` times.
    // swift-format-ignore: FunctionParameterCount
    func run<Response>(
        _ strategy: any DownloadStrategy, _ endpoint: Endpoint<Response>, _ request: URLRequest,
        context: RequestContext, to destination: URL, resumeAttempts: Int
    ) async throws -> DownloadedFile {
        var resumes = 0
        while true {
            do {
                let (body, head) = try await exchange(request, context: context, transport: strategy.attempt)
                try await strategy.finishWriting()
                try endpoint.checkStatus(of: head, body: body)
                let byteCount = try strategy.place(at: destination)
                return DownloadedFile(
                    url: destination, response: head, byteCount: byteCount, resumeCount: resumes)
            } catch {
                // Decided before waiting for the writes: a cancelled or failed download drops its backlog
                // (unless every byte may have arrived).
                let mayBeComplete = Self.isDropOrStall(error) && strategy.completeHead != nil
                guard !Task.isCancelled, Self.mayResume(after: error),
                    resumes < resumeAttempts || mayBeComplete
                else {
                    await strategy.discard()
                    throw error
                }
                // A write that failed as the transfer ended another way is the error to report.
                if let failedWrite = await strategy.beginAttempt() {
                    await strategy.discard()
                    throw failedWrite
                }
                // Every byte of the announced total arrived before the connection dropped or stalled: the
                // download is complete.
                if Self.isDropOrStall(error), let head = strategy.completeHead {
                    return try await complete(strategy, head: head, to: destination, resumes: resumes)
                }
                guard resumes < resumeAttempts, strategy.canResume || strategy.takeRestart() else {
                    await strategy.discard()
                    throw error
                }
                resumes += 1
            }
        }
    }

    /// Puts a file that holds every byte of `head`'s body in place.
    private func complete(
        _ strategy: any DownloadStrategy, head: HTTPURLResponse, to destination: URL, resumes: Int
    ) async throws -> DownloadedFile {
        do {
            try await strategy.finishWriting()
            let byteCount = try strategy.place(at: destination)
            return DownloadedFile(
                url: destination, response: head, byteCount: byteCount, resumeCount: resumes)
        } catch {
            await strategy.discard()
            throw error
        }
    }

    /// Whether a failure ends a transfer without saying its bytes were wrong: a timeout or a transport
    /// failure worth resuming, unless the provider or URLSession refused the body itself (bytes past the
    /// range asked for, a body that could not be decoded or parsed). After the last byte, such a failure
    /// leaves a complete file.
    static func isDropOrStall(_ error: any Error) -> Bool {
        guard mayResume(after: error) else { return false }
        if case NetworkError.transport(let error) = error {
            return !FailureKinds.refusesBody.contains(error.code)
        }
        return true
    }

    /// Whether a failure is a dropped or stalled transfer worth resuming: a timeout, or a transport
    /// failure other than cancellation, a bad URL or a refused certificate (FoundationNetworking reports
    /// a connection closed early as `URLError(.unknown)`, "transfer closed with N bytes remaining").
    static func mayResume(after error: any Error) -> Bool {
        switch error {
        case NetworkError.timedOut: true
        case NetworkError.transport(let error): !FailureKinds.endsDownload.contains(error.code)
        default: false
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
}
