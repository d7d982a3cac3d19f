import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The URLSession every request of a provider built on a `URLSession` runs on: whole-body requests,
/// streams, downloads and uploads alike, as data, upload and download tasks whose events its delegate
/// hands to each task's ``TransferHandler``, so every body is consumed as it arrives and can be bounded
/// (a download task's is written by URLSession to a file of its own). URLSession on
/// Linux calls no per-task delegate's response and data methods (measured) and has no
/// `bytes(for:)`, so a session delegate of its own is the one way that works on every platform.
///
/// It is made from the caller's session's configuration (headers, cookies, credential storage, proxy,
/// limits), and the caller's session delegate keeps answering authentication and TLS challenges: each is
/// forwarded to it. Credential headers in the configuration's `httpAdditionalHeaders` (an `X-Api-Key`)
/// are moved onto each request instead, where the redirect guard can drop them on a redirect to another
/// origin; URLSession would otherwise re-add them to every request, whatever its host.
///
/// On Linux it has no `URLCache`: FoundationNetworking trapped when `cancel()` raced a completion on
/// sessions with a cache (another project traced the window to the cache lookup made before a task's
/// protocol exists), and its tasks must be cancellable (a body past its limit, a stream whose reader
/// left). Without a cache, a stress test cancelling 150 streams around their end, also under
/// ThreadSanitizer, has not trapped; that is evidence, not proof. On Apple platforms the configuration's
/// cache is kept, unless the provider has an ``HTTPCache`` (then it is dropped too).
final class DelegateSession: Sendable {
    let session: URLSession
    /// Routes the session's events.
    let delegate: TransferDelegate
    /// The configuration's header fields, set on each request that does not set its own (every one for
    /// a session that is not a background session, so the redirect guard judges each by the rule as it
    /// stands at the redirect, a name declared after the session was made included; none for a
    /// background session, which adds its own and may serve other providers).
    let requestHeaders: [String: String]
    /// A background session's tasks that finish with no caller waiting; `nil` for any other session.
    let background: BackgroundTasks?

    /// A session like `base`, or `nil` when `base` is a background session (which allows no data task
    /// and no second session with its identifier).
    /// With `keepsNoURLCache` (the provider has an ``HTTPCache``), its `URLCache` is dropped on Apple
    /// platforms too, so no body is kept twice.
    convenience init?(like base: URLSession, keepsNoURLCache: Bool = false) {
        guard base.configuration.identifier == nil,
            let configuration = base.configuration.copy() as? URLSessionConfiguration
        else { return nil }
        if keepsNoURLCache { configuration.urlCache = nil }
        self.init(
            configuration: configuration, forwardingChallengesTo: base.delegate, on: base.delegateQueue,
            background: nil)
    }

    /// A session with `configuration` (changed as the type's summary says), forwarding challenges to
    /// `userDelegate` on `userQueue` (this session's own queue when `nil`).
    init(
        configuration: URLSessionConfiguration,
        forwardingChallengesTo userDelegate: (any URLSessionDelegate)?,
        on userQueue: OperationQueue?, background: BackgroundTasks?
    ) {
        #if canImport(FoundationNetworking)
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        #endif
        let (kept, credentials) = Self.split(configuration.httpAdditionalHeaders)
        // Added to requests after the pipeline has seen them: their values are declared here instead.
        for value in credentials.values { Credentials.declareHeaderValue(value) }
        if background == nil {
            // Every header moves onto each request, where the redirect guard sees it: URLSession re-adds
            // its configuration's headers after a redirect, whatever the guard removed.
            requestHeaders = kept.reduce(into: credentials) { $0["\($1.key)"] = "\($1.value)" }
            configuration.httpAdditionalHeaders = nil
        } else {
            // A background session may serve other providers later: each adds its own credentials.
            requestHeaders = [:]
            configuration.httpAdditionalHeaders = kept
        }
        self.background = background
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "NetworkLayer.DelegateSession"
        background?.deliversEvents(on: queue)
        delegate = TransferDelegate(
            forwardingChallengesTo: userDelegate, on: userQueue ?? queue, background: background)
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    /// Whether the session is a background session, which runs download tasks and uploads from a file
    /// only.
    var isBackground: Bool { background != nil }

    /// Starts `request` as a data task feeding `sink`, which gives its answer to `finish`, with no
    /// timeout of its own (its caller races one). Returns how to stop it.
    func collect(
        _ request: URLRequest, into sink: ResponseSink, deadlines: DeadlineTimer,
        finish: @escaping @Sendable (ResponseSink.Answer) -> Void
    ) -> Timeout.Cancel {
        sink.answers(to: finish)
        let handler = TransferHandler(
            sink: sink, idleTimeout: nil, deadline: nil, deadlines: deadlines, progress: nil)
        start(request, handler: handler)
        return { handler.fail(URLError(.cancelled)) }
    }

    /// Starts `request` (uploading `body`, when given) and reports its events to `handler`. On a
    /// background session, the task carries `note` (`nil` elsewhere), for a process that finds it without
    /// a caller.
    func start(
        _ request: URLRequest, uploading body: UploadBody? = nil, note: BackgroundTasks.Note? = nil,
        handler: TransferHandler
    ) {
        guard !refusedAsInvalidated(request, handler: handler) else { return }
        let request = withCredentials(request)
        let task =
            switch body {
            case .file(let file): session.uploadTask(with: request, fromFile: file)
            case .data(let data): session.uploadTask(with: request, from: data)
            case nil: session.dataTask(with: request)
            }
        run(task, note: note, handler: handler)
    }

    /// Starts a download task for `request`, or from `resumeData` (URLSession then sends the request the
    /// data holds, for the missing bytes), and reports its events to `handler`. On a background session,
    /// the task carries `note`.
    func startDownload(
        _ request: URLRequest, resumingFrom resumeData: Data?, note: BackgroundTasks.Note? = nil,
        handler: TransferHandler
    ) {
        guard !refusedAsInvalidated(request, handler: handler) else { return }
        // FoundationNetworking gives no resume data, and a task made from some fails at once and can
        // trap inside it (a registry assertion, seen under load): there the download starts over.
        let resumeData = runsOnFoundationNetworking ? nil : resumeData
        let task =
            resumeData.map { session.downloadTask(withResumeData: $0) }
            ?? session.downloadTask(with: withCredentials(request))
        run(task, note: note, handler: handler)
    }

    /// Whether the session was invalidated, so no task may be made on it (URLSession raises an exception
    /// for one): `handler` then fails with
    /// ``NetworkError/InvalidRequest/sessionInvalidated(endpoint:reason:)``. Asked before every task, a
    /// resume's and a retry's included.
    private func refusedAsInvalidated(_ request: URLRequest, handler: TransferHandler) -> Bool {
        guard let reason = delegate.invalidation.withLock({ $0 }) else { return false }
        handler.fail(
            NetworkError.invalidRequest(
                .sessionInvalidated(endpoint: Redaction.redact(request.url), reason: reason)))
        return true
    }

    /// How many tasks have a caller's handler (for tests).
    var handledTaskCount: Int { delegate.handledTaskCount }

    /// Registers `handler` for `task` unless a caller's handler already has it (see ``join(downloadTo:handler:)``).
    func registerIfFree(_ handler: TransferHandler, for task: URLSessionTask) -> Bool {
        delegate.registerIfFree(handler, for: task)
    }

    private func run(_ task: URLSessionTask, note: BackgroundTasks.Note?, handler: TransferHandler) {
        if let note { task.taskDescription = note.encoded }
        delegate.register(handler, for: task)
        handler.start(task)
    }

    /// `headers` as the ones URLSession may add to every request, and the credential headers among them.
    static func split(_ headers: [AnyHashable: Any]?) -> (
        kept: [AnyHashable: Any], credentials: [String: String]
    ) {
        var kept: [AnyHashable: Any] = [:]
        var credentials: [String: String] = [:]
        for (name, value) in headers ?? [:] {
            if Redaction.isSensitive(headerName: "\(name)") {
                credentials["\(name)"] = "\(value)"
            } else {
                kept[name] = value
            }
        }
        return (kept, credentials)
    }

    /// `request` with the configuration's headers it does not set itself. A background
    /// session's requests get their provider's instead (``NetworkProvider/backgroundRequest(_:endpoint:)``):
    /// its session may be another provider's.
    private func withCredentials(_ request: URLRequest) -> URLRequest {
        guard !isBackground else { return request }
        var request = request
        for (name, value) in requestHeaders where request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }

    /// Lets running transfers finish, then releases the session and its delegate. A background session
    /// is kept for the process instead (see ``background(like:delegate:on:background:)``).
    func invalidate() {
        guard !isBackground else { return }
        session.finishTasksAndInvalidate()
    }
}

/// What an upload sends: a file, streamed from disk by URLSession, or bytes in memory.
enum UploadBody: Sendable {
    case file(URL)
    case data(Data)
}

extension UploadBody {
    /// The body in memory, for a session that takes it whole.
    /// - Throws: ``NetworkError/file(_:)`` when the file cannot be read.
    func bytes() throws -> Data {
        switch self {
        case .data(let data):
            return data
        case .file(let file):
            do {
                return try Data(contentsOf: file)
            } catch {
                throw NetworkError.file(error)
            }
        }
    }
}
