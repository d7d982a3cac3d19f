import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Routes each task's delegate events to its handler, and challenges to the caller's session delegate.
final class TransferDelegate: NSObject, URLSessionDataDelegate, URLSessionDownloadDelegate, Sendable {
    private let handlers = Locked<[Int: TransferHandler]>([:])
    private let challenges: ChallengeForwarder
    /// Where a background session's tasks without a handler (from before a relaunch) report.
    private let background: BackgroundTasks?
    /// Whether the session was invalidated, and the error it gave (`nil` inside when it gave none).
    let invalidation = Locked<String??>(nil)
    /// Called once the session is invalidated.
    let onInvalidation = Locked<(@Sendable () -> Void)?>(nil)

    init(
        forwardingChallengesTo delegate: (any URLSessionDelegate)?, on queue: OperationQueue,
        background: BackgroundTasks?
    ) {
        challenges = ChallengeForwarder(delegate: delegate, queue: queue)
        self.background = background
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
            // FoundationNetworking has already reported the `401` (held by the handler), and with default
            // handling and no credential it never completes the task (measured): anything but a
            // credential cancels the challenge, and the held `401` becomes the answer.
            // Default handling goes on when the credential storage proposes a credential.
            let handler = handler(for: task)
            // A transfer that already has its answer (cancelled, or its 401 given out) asks nobody.
            if handler?.settlesChallengeItself() ?? true {
                completionHandler(.cancelAuthenticationChallenge, nil)
                return
            }
            let proposed = challenge.proposedCredential != nil
            challenges.forward(challenge, session: session, task: task) { disposition, credential in
                let retrying =
                    (disposition == .useCredential && credential != nil)
                    || (disposition == .performDefaultHandling && proposed)
                handler?.challengeAnswered(retrying: retrying)
                completionHandler(retrying ? disposition : .cancelAuthenticationChallenge, credential)
            }
        #else
            challenges.forward(challenge, session: session, task: task, answer: completionHandler)
        #endif
    }

    /// The session can make no more tasks: a transfer asked for now is refused with a typed error
    /// instead of a task URLSession would raise an exception for.
    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        invalidation.withLock { $0 = .some(error.map { Redaction.redact(text: "\($0)") }) }
        onInvalidation.withLock { $0 }?()
    }

    func register(_ handler: TransferHandler, for task: URLSessionTask) {
        handlers.withLock { $0[task.taskIdentifier] = handler }
    }

    /// How many tasks have a handler.
    var handledTaskCount: Int { handlers.withLock { $0.count } }

    /// Registers `handler` for `task` unless a handler already has it: a caller joining a task no caller
    /// waits for. Returns whether it did.
    func registerIfFree(_ handler: TransferHandler, for task: URLSessionTask) -> Bool {
        handlers.withLock { handlers in
            guard handlers[task.taskIdentifier] == nil else { return false }
            handlers[task.taskIdentifier] = handler
            return true
        }
    }

    private func handler(for task: URLSessionTask) -> TransferHandler? {
        handlers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let handler = handler(for: dataTask) else {
            completionHandler(background?.received(response, for: dataTask) == true ? .allow : .cancel)
            return
        }
        completionHandler(handler.receive(head: response) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let handler = handler(for: dataTask) else {
            background?.received(data, for: dataTask)
            return
        }
        handler.receive(data, response: dataTask.response)  // read only when no head has come
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        handler(for: task)?.sent(totalBytesSent)
    }

    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
    ) {
        handler(for: downloadTask)?.wrote(
            bytesWritten, total: totalBytesWritten, of: totalBytesExpectedToWrite,
            response: downloadTask.response)
    }

    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
    ) {
        guard let handler = handler(for: downloadTask) else {
            if let background {
                background.finished(downloadTask, at: location)
            } else {
                // FoundationNetworking leaves the file behind (measured).
                try? FileManager.default.removeItem(at: location)
            }
            return
        }
        handler.finished(
            at: location, response: downloadTask.response,
            journalName: BackgroundJournal.name(of: downloadTask))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let handler = handlers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else {
            background?.completed(task, error: error)
            return
        }
        handler.complete(error: error, response: task.response)
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        background?.eventsFinished()
    }

    /// Keeps out of the session's `URLCache` (on Apple platforms, `URLCache.shared`'s `Cache.db` unless the
    /// configuration says otherwise) every answer whose request carried a credential: CFNetwork would
    /// store the request with it, headers and URL in clear, where none of NetworkLayer's redaction
    /// applies. FoundationNetworking has no cache on these sessions and never asks.
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask,
        willCacheResponse proposedResponse: CachedURLResponse,
        completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void
    ) {
        let request = dataTask.currentRequest ?? dataTask.originalRequest
        let cookies =
            session.configuration.httpShouldSetCookies ? session.configuration.httpCookieStorage : nil
        completionHandler(
            request.map { Self.mayEnterURLCache($0, cookies: cookies) } == true ? proposedResponse : nil)
    }

    /// Whether an answer to `request` may enter a `URLCache`: the request carries no credential header
    /// (declared or named like one: `Authorization`, `Cookie`, `X-Api-Key`), no credential query item,
    /// no user or password and no matrix parameter in its URL, no declared or learned credential value
    /// anywhere in its URL, and `cookies` holds no cookie for its URL.
    static func mayEnterURLCache(_ request: URLRequest, cookies: HTTPCookieStorage?) -> Bool {
        guard let url = request.url else { return false }
        if (request.allHTTPHeaderFields ?? [:]).keys.contains(where: { Redaction.isSensitive(headerName: $0) }
        ) {
            return false
        }
        if let components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            if components.user != nil || components.password != nil { return false }
            // Matrix parameters (`;jsessionid=…`) may carry a session.
            if components.percentEncodedPath.contains(";") { return false }
            if (components.queryItems ?? []).contains(where: { Redaction.isSensitive(queryName: $0.name) }) {
                return false
            }
        }
        if SecretRule.carriesSecretValue(url.absoluteString) { return false }
        if request.httpShouldHandleCookies, let held = cookies?.cookies(for: url), !held.isEmpty {
            return false
        }
        return true
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(RedirectGuard.redirect(request, from: task.originalRequest?.url ?? response.url))
    }
}
