import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport over a `URLSession`: every call runs as a task of the provider's own delegate session
/// (``DelegateSession``), made once from that session's configuration and forwarding challenges to its
/// delegate, so each body is consumed as it arrives and can be bounded. It is the one place that knows
/// the session is a `URLSession`, and whether it is a background session.
final class URLSessionTransport: Transport {
    /// The session the provider was given.
    private let base: URLSession
    let configuration: NetworkProvider.Configuration
    let seams: NetworkProvider.Seams
    private let calls: WholeBodyCalls
    /// `nil` until the first request, or for a background `URLSession` given to
    /// ``NetworkProvider/init(session:middlewares:configuration:)``; set at once by
    /// ``NetworkProvider/init(sessionConfiguration:delegate:delegateQueue:middlewares:configuration:sendsCredentialHeaders:finishedInBackground:)``.
    let made: Locked<DelegateSession?>
    /// The credential headers a provider on a background session adds, and whether it may send them. The
    /// session may be shared with another provider; these are this one's.
    let policy: BackgroundPolicy?
    /// Every header field the session's configuration adds to a request that does not set it: its
    /// `httpAdditionalHeaders`, credential headers included.
    private let sessionHeaders: [(name: String, value: String)]
    /// Where the session's cookies are, when it sends them.
    private let cookies: CookieJar?
    /// What every transfer is refused with, when the provider could make no session (a background
    /// configuration in an app extension without a shared container).
    private let refusal: NetworkError?

    // swift-format-ignore: FunctionParameterCount
    init(
        base: URLSession, configuration: NetworkProvider.Configuration, seams: NetworkProvider.Seams,
        calls: WholeBodyCalls, made: DelegateSession?, policy: BackgroundPolicy?, refusal: NetworkError? = nil
    ) {
        self.refusal = refusal
        self.base = base
        self.configuration = configuration
        self.seams = seams
        self.calls = calls
        self.made = Locked(made)
        self.policy = policy
        let sessionConfiguration = base.configuration
        // A session the provider made has moved its configuration's headers onto each request (it sets
        // them itself): they are read from it too.
        var headers = (sessionConfiguration.httpAdditionalHeaders ?? [:]).map { ("\($0.key)", "\($0.value)") }
        headers += (made?.requestHeaders ?? [:]).map { ($0.key, $0.value) }
        sessionHeaders = headers.sorted { $0.0.lowercased() < $1.0.lowercased() }
        cookies =
            sessionConfiguration.httpShouldSetCookies
            ? sessionConfiguration.httpCookieStorage.map(CookieJar.init) : nil
    }

    /// `request` with what the session adds below the pipeline: its configuration's header fields the
    /// request does not set, and every cookie its storage holds for the URL (sorted by name, so the same
    /// cookies always read the same), after the request's own `Cookie` if it sets one. The cookies are
    /// added whatever the request's `httpShouldHandleCookies` says and whether or not it sets a `Cookie`:
    /// FoundationNetworking replaces a request's `Cookie` with the stored ones and ignores that flag,
    /// and a superset can only split answers, never join two users'.
    func asSent(_ request: URLRequest) -> URLRequest {
        var sent = request
        for (name, value) in sessionHeaders where sent.value(forHTTPHeaderField: name) == nil {
            sent.setValue(value, forHTTPHeaderField: name)
        }
        if let cookies, let url = request.url {
            let held = (cookies.storage.cookies(for: url) ?? []).sorted {
                ($0.name, $0.value) < ($1.name, $1.value)
            }
            if !held.isEmpty {
                let own = request.value(forHTTPHeaderField: "Cookie").map { [$0] } ?? []
                sent.setValue(
                    (own + held.map { "\($0.name)=\($0.value)" }).joined(separator: "; "),
                    forHTTPHeaderField: "Cookie")
            }
        }
        return sent
    }

    var background: BackgroundTasks? { made.withLock { $0 }?.background }

    func invalidate() {
        made.withLock { $0 }?.invalidate()
    }

    /// The session every request goes through: NetworkLayer's own, made once from the base session's
    /// configuration (or the one a provider made with a session configuration owns).
    /// - Throws: ``NetworkError/InvalidRequest/backgroundSession(endpoint:)`` for a background session
    ///   given to the provider.
    func transfers(endpoint name: String) throws(NetworkError) -> DelegateSession {
        if let refusal { throw refusal }
        let session = made.withLock { session -> DelegateSession? in
            if let session { return session }
            session = DelegateSession(like: base, keepsNoURLCache: configuration.httpCache != nil)
            return session
        }
        guard let session else { throw .invalidRequest(.backgroundSession(endpoint: name)) }
        if let reason = session.delegate.invalidation.withLock({ $0 }) {
            throw .invalidRequest(.sessionInvalidated(endpoint: name, reason: reason))
        }
        return session
    }

    /// ``transfers(endpoint:)`` for a request that needs a data task or an upload from memory, which a
    /// background session refuses.
    func dataTransfers(endpoint name: String) throws(NetworkError) -> DelegateSession {
        let transfers = try transfers(endpoint: name)
        guard !transfers.isBackground else { throw .invalidRequest(.backgroundSession(endpoint: name)) }
        return transfers
    }

    func send(
        _ request: URLRequest, upload: Upload?, into sink: ResponseSink, rules: AttemptRules,
        record: AttemptRecord
    ) async throws -> (Data, HTTPURLResponse) {
        // Only an upload from a file may run on a background session.
        let transfers =
            if case .file = upload?.body {
                try transfers(endpoint: rules.endpoint)
            } else {
                try dataTransfers(endpoint: rules.endpoint)
            }
        guard upload == nil, case .whole = sink.destination else {
            return try await transfer(
                request, upload: upload, into: sink, rules: rules, record: record, on: transfers)
        }
        return try await calls.call(request, rules: rules, record: record, shares: true) {
            [deadlines = seams.deadlines] request, _, finish in
            transfers.collect(request, into: sink, deadlines: deadlines, finish: finish)
        }
    }

    func download(
        _ request: URLRequest, to destination: URL, rules: AttemptRules,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) throws -> any DownloadStrategy {
        let transfers = try transfers(endpoint: rules.endpoint)
        guard transfers.isBackground || (seams.downloadsWithTasks && (configuration.downloadWindow ?? 0) < 1)
        else {
            // Windows smaller than 64 KiB are raised to it.
            let window = configuration.downloadWindow.flatMap { $0 > 0 ? max(Int64($0), 64 << 10) : nil }
            return ProviderWrittenDownload(
                destination: destination, writeChunk: seams.downloadWrites, transport: self, rules: rules,
                window: window, progress: progress)
        }
        return try SessionWrittenDownload(
            to: destination, on: transfers, rules: rules, deadlines: seams.deadlines, progress: progress
        ) { [self] request in try backgroundRequest(request, endpoint: rules.endpoint) }
    }
}

/// The transport for `session`: a ``URLSessionTransport`` for a `URLSession`, a ``SessionTransport`` for
/// any other: the one place a session is asked whether it is a `URLSession`.
func makeTransport(
    for session: any NetworkSessionType, configuration: NetworkProvider.Configuration,
    seams: NetworkProvider.Seams, calls: WholeBodyCalls
) -> any Transport {
    guard let urlSession = session as? URLSession else {
        return SessionTransport(session: session, calls: calls, seams: seams)
    }
    return URLSessionTransport(
        base: urlSession, configuration: configuration, seams: seams, calls: calls, made: nil, policy: nil)
}

/// A session's cookie storage, carried across tasks.
struct CookieJar: @unchecked Sendable {
    // @unchecked Sendable: HTTPCookieStorage is documented as thread-safe (its methods may be called from
    // any thread), and this only holds the reference; it is not Sendable in every SDK.
    let storage: HTTPCookieStorage
}

/// Whether URLSession is FoundationNetworking's (Linux), whose tasks differ from Apple's where the
/// provider says so.
#if canImport(FoundationNetworking)
    let runsOnFoundationNetworking = true
#else
    let runsOnFoundationNetworking = false
#endif
