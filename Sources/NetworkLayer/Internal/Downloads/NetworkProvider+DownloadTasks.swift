import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads that URLSession writes itself: a download task per attempt, whose file is moved beside the
/// destination when it finishes, and a resume made from the resume data a dropped attempt left.
///
/// This is how a download without a window runs on Apple platforms. FoundationNetworking's download tasks
/// leave every file they write in the temporary folder (a finished one after its delegate returns, a
/// partial one after a drop) and give no resume data (measured), so on Linux a download runs on data tasks
/// (see ``NetworkProvider/Configuration/downloadWindow``); the tests run this path there through
/// `downloadsWithTasks`, resume data aside.
extension NetworkProvider {
    // swift-format-ignore: FunctionParameterCount
    func downloadWithTasks<Response>(
        _ endpoint: Endpoint<Response>, _ request: URLRequest, context: RequestContext, to destination: URL,
        resumeAttempts: Int, progress: (@Sendable (TransferProgress) -> Void)?, on transfers: TransferSession
    ) async throws -> DownloadedFile {
        // A missing folder is found before the body is downloaded, as with windows.
        var isFolder: ObjCBool = false
        guard
            FileManager.default.fileExists(
                atPath: destination.deletingLastPathComponent().path, isDirectory: &isFolder),
            isFolder.boolValue
        else { throw NetworkError.file(POSIXError(.ENOENT)) }
        let file = DownloadTaskFile(destination: destination, placesAtOnce: transfers.isBackground)
        var resumes = 0
        while true {
            do {
                let transport = downloadTaskTransport(
                    for: endpoint, into: file, to: destination, on: transfers, progress: progress)
                let (body, head) = try await exchange(request, context: context, transport: transport)
                try endpoint.checkStatus(of: head, body: body)
                let byteCount = try file.move(to: destination)
                return DownloadedFile(
                    url: destination, response: head, byteCount: byteCount, resumeCount: resumes)
            } catch {
                // Only resume data resumes: a download task keeps no partial file of its own otherwise.
                // A resume answered with another version's bytes starts over.
                guard !Task.isCancelled, Self.mayResume(after: error), resumes < resumeAttempts,
                    file.canResume || file.takeRestart()
                else {
                    file.discard()
                    throw error
                }
                resumes += 1
            }
        }
    }

    /// One attempt: a download task for the request, or from the resume data the last attempt left.
    private func downloadTaskTransport<Response>(
        for endpoint: Endpoint<Response>, into file: DownloadTaskFile, to destination: URL,
        on transfers: TransferSession, progress: (@Sendable (TransferProgress) -> Void)?
    ) -> NetworkMiddleware.Next {
        { [self] request in
            try Task.checkCancellation()
            var request = Self.uncompressed(request)
            // URLSession's own timeout watches for a stall, so that a stalled task leaves resume data;
            // the provider's timer keeps the total deadline.
            request.timeoutInterval = Self.idleTimeoutInterval(endpoint.timeout)
            if transfers.isBackground { request = try backgroundRequest(request, endpoint: endpoint.name) }
            let resumeData = file.takeResumeData()
            let sink = DownloadTaskSink(
                file: file, accepts: endpoint.acceptableStatusCodes, resumed: resumeData != nil,
                progress: progress)
            // A background session's task goes on while the app is suspended, and uptime with it: the
            // provider's deadline would cancel it when the app wakes.
            let handler = TransferHandler(
                sink: sink, idleTimeout: nil, deadline: transfers.isBackground ? nil : endpoint.deadline,
                deadlines: configuration.deadlines, progress: nil)
            defer { CurrentAttempt.received(handler.counts.received) }
            // On a background session, what a process without this caller needs to finish the task: a
            // resumed answer must carry the validator of the bytes it continues.
            let note =
                transfers.isBackground
                ? BackgroundTasks.Note(
                    endpoint: endpoint.name, destination: destination,
                    validator: resumeData == nil ? nil : file.validator) : nil
            transfers.startDownload(request, resumingFrom: resumeData, note: note, handler: handler)
            return try await Self.answer(of: handler, sink: sink, file: file, timeout: endpoint.timeout)
        }
    }

    /// What an attempt's task ended with: the answer, with a refused status's body (none once it passed
    /// its limit), or the failure as the provider reports it, its resume data kept for the next attempt.
    static func answer(
        of handler: TransferHandler, sink: DownloadTaskSink, file: DownloadTaskFile, timeout: Duration
    ) async throws -> (Data, HTTPURLResponse) {
        do {
            // The head comes with the first bytes on Apple platforms, with the file on Linux.
            _ = try await handler.head()
            CurrentAttempt.responseStarted()
            try await handler.end()
        } catch is RefusedBodyKept {
            return (Data(), try await handler.head())
        } catch {
            throw downloadTaskFailure(file.keepResumeData(of: error), timeout: timeout)
        }
        return (sink.refusedBody ?? Data(), try await handler.head())
    }

    /// What a download task's failure is reported as: URLSession's own idle timeout as the provider's,
    /// and a file URLSession could not write (a full disk) as ``NetworkError/file(_:)``, never resumed.
    static func downloadTaskFailure(_ error: any Error, timeout: Duration) -> any Error {
        if let failure = error as? POSIXError { return NetworkError.file(failure) }
        if let failure = error as? CocoaError, failure.isFileError { return NetworkError.file(failure) }
        guard let failure = error as? URLError else { return error }
        switch failure.code {
        case .timedOut: return NetworkError.timedOut(timeout)
        case .cannotCreateFile, .cannotOpenFile, .cannotWriteToFile, .cannotCloseFile, .cannotMoveFile,
            .cannotRemoveFile:
            return NetworkError.file(failure)
        default: return failure
        }
    }

    /// `timeout` as URLSession's idle timeout: at least a millisecond, at most a week.
    static func idleTimeoutInterval(_ timeout: Duration) -> TimeInterval {
        min(max(0.001, timeout.timeInterval), TimeInterval(Endpoint<Data>.maximumTransportTimeout))
    }
}
