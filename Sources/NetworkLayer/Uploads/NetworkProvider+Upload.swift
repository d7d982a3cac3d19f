import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkProvider {
    /// Sends `endpoint` with the contents of `file` as its body, streamed from disk, and decodes the
    /// response like ``send(_:)``.
    ///
    /// The endpoint's own body, if any, is replaced; its `Content-Type` (or the endpoint's header, or
    /// `application/octet-stream`) is kept. The request goes through the middlewares like any other (a
    /// retry sends the file again). The endpoint's timeout is an idle timeout: an upload that keeps
    /// sending never hits it.
    ///
    /// ```swift
    /// let receipt = try await provider.upload(api.uploadPoster(id), fromFile: posterURL) { progress in
    ///     print(progress.completedBytes, progress.expectedBytes ?? 0)
    /// }
    /// ```
    /// - Parameters:
    ///   - endpoint: The endpoint to send.
    ///   - file: The file to send; it must be a regular file.
    ///   - progress: Called as bytes are sent, on the transfer's thread, not the caller's; `nil` by
    ///     default.
    /// - Returns: The decoded response.
    /// - Throws: ``NetworkError`` (``NetworkError/file(_:)`` when the file cannot be read), or
    ///   `CancellationError` when the calling task is cancelled.
    public func upload<Response>(
        _ endpoint: Endpoint<Response>, fromFile file: URL,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> Response {
        // The link's target, resolved here: FoundationNetworking sent a symbolic link's own bytes (its
        // target's path, 60 bytes in the test) instead of the file's.
        let resolved = file.resolvingSymlinksInPath()
        return try await upload(
            endpoint, body: .file(resolved), size: try Self.regularFileSize(resolved), progress: progress)
    }

    /// Sends `endpoint` with `data` as its body, reporting the bytes sent, and decodes the response like
    /// ``send(_:)``. Like ``upload(_:fromFile:progress:)`` otherwise.
    /// - Parameters:
    ///   - endpoint: The endpoint to send.
    ///   - data: The body.
    ///   - progress: Called as bytes are sent, on the transfer's thread, not the caller's; `nil` by
    ///     default.
    /// - Returns: The decoded response.
    /// - Throws: ``NetworkError``, or `CancellationError` when the calling task is cancelled.
    public func upload<Response>(
        _ endpoint: Endpoint<Response>, data: Data, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> Response {
        try await upload(endpoint, body: .data(data), size: Int64(data.count), progress: progress)
    }

    private func upload<Response>(
        _ endpoint: Endpoint<Response>, body: UploadBody, size: Int64,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> Response {
        var request = try endpoint.makeRequest()
        request.httpBody = nil
        if request.value(forHTTPHeaderField: "Content-Type") == nil {
            request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        }
        let context = endpoint.context
        let rules = endpoint.rules(defaultLimit: configuration.maximumResponseSize)
        return try await observing(request, context: context) {
            let (data, http) = try await exchange(request, context: context) {
                [transport, cache = configuration.httpCache] request, record in
                try Task.checkCancellation()
                let sink = ResponseSink(.whole, rules: rules, method: request.httpMethod, record: record)
                let answer = try await transport.send(
                    request, upload: Upload(body: body, size: size, progress: progress), into: sink,
                    rules: rules, record: record)
                // An upload changes the resource as any unsafe method does: the stored GET of the URL it
                // was sent to (after the middlewares) is invalidated.
                cache?.invalidate(after: request, answeredBy: answer.1, asSent: transport.asSent)
                return answer
            }
            return try Self.decode(data, http, for: endpoint).value
        }
    }

    /// Sends `endpoint` with `form` as a `multipart/form-data` body written to a temporary file first,
    /// file parts copied in pieces, so large files never sit whole in memory; then like
    /// ``upload(_:fromFile:progress:)``. The temporary file is removed afterwards. Cancelling the caller
    /// stops the copy at its next piece (256 KiB).
    /// - Parameters:
    ///   - endpoint: The endpoint to send.
    ///   - form: The form; its file parts are read from disk.
    ///   - progress: Called as bytes are sent; `nil` by default.
    /// - Returns: The decoded response.
    /// - Throws: ``NetworkError``, or `CancellationError` when the calling task is cancelled.
    public func upload<Response>(
        _ endpoint: Endpoint<Response>, multipart form: MultipartFormData,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> Response {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            BackgroundTasks.Note.temporaryBodyPrefix + UUID().uuidString)
        // Removed however this ends, a failed write included: the form's fields (a password) are in it.
        defer { try? FileManager.default.removeItem(at: file) }
        // Written on a Dispatch queue: copying large files would hold a cooperative thread for seconds.
        // A cancelled caller stops the copy at its next 256 KiB piece; the file is then removed above.
        let cancelled = Locked(false)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                DispatchQueue.global().async {
                    continuation.resume(
                        with: Result { try form.write(to: file, stoppingWhen: { cancelled.withLock { $0 } }) }
                    )
                }
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
        }
        var endpoint = endpoint
        endpoint.headers["Content-Type"] = form.contentType
        return try await upload(endpoint, fromFile: file, progress: progress)
    }

    /// The size of `file`, which must be a regular file or a link to one (a FIFO could block an upload
    /// forever).
    static func regularFileSize(_ file: URL) throws -> Int64 {
        do {
            let attributes = try FileManager.default.attributesOfItem(
                atPath: file.resolvingSymlinksInPath().path)
            guard attributes[.type] as? FileAttributeType == .typeRegular,
                let size = (attributes[.size] as? NSNumber)?.int64Value
            else {
                throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: file.path])
            }
            return size
        } catch {
            throw NetworkError.file(error)
        }
    }
}
