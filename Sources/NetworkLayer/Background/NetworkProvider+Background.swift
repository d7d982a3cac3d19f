import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkProvider {
    /// Creates a provider on a `URLSession` of its own, made from `sessionConfiguration`: the way to send
    /// downloads and uploads through a background session.
    ///
    /// With a background configuration, a ``download(_:to:resumeAttempts:progress:)`` and an
    /// ``upload(_:fromFile:progress:)`` (or a multipart upload) run as download and upload tasks that
    /// go on while the app is suspended, and a caller still waiting when one ends gets its answer as
    /// usual. What a background session cannot run (a `send`, a stream, an upload of `Data`) throws
    /// ``NetworkError/InvalidRequest/backgroundSession(endpoint:)`` before any task is made. So does a
    /// request carrying a credential header (`Authorization`, an API key) unless
    /// `sendsCredentialHeaders` is `true`: a background session follows redirects itself, to any host,
    /// without asking the provider, and the header goes along.
    ///
    /// A transfer that ends after the app was terminated has no caller: the provider made again with the
    /// same identifier reports it to `finishedInBackground`, having moved a download's file (a `2xx`
    /// answer's) to the destination its caller gave. So make the provider once, when the app launches,
    /// and give it the system's handler for the session's events:
    ///
    /// ```swift
    /// let downloads = NetworkProvider(
    ///     sessionConfiguration: .background(withIdentifier: "com.example.app.downloads"),
    ///     finishedInBackground: { transfer in
    ///         if case .download(let file) = transfer.kind, transfer.error == nil { library.add(file) }
    ///     })
    ///
    /// // In your UIApplicationDelegate:
    /// func application(
    ///     _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
    ///     completionHandler: @escaping () -> Void
    /// ) {
    ///     if !downloads.handleBackgroundEvents(forSession: identifier, completionHandler: completionHandler) {
    ///         completionHandler()
    ///     }
    /// }
    /// ```
    ///
    /// A process has one session per background identifier: a provider made again with the same one (or
    /// two at once) shares the session made first, with its configuration's other headers, limits and
    /// `delegate`, and the newest provider's `finishedInBackground` hears of orphaned transfers. The
    /// session is kept for the process, with the first configuration's cookie and credential storage.
    /// The credential headers of each provider's configuration, and `sendsCredentialHeaders`, stay each
    /// provider's own.
    ///
    /// With any other configuration, the provider works as one given a session of that configuration
    /// (see ``init(session:middlewares:configuration:)``).
    ///
    /// - Parameters:
    ///   - sessionConfiguration: The session's configuration; copied.
    ///   - delegate: Answers the session's authentication and TLS challenges (certificate pinning), as the
    ///     delegate of a session given to ``init(session:middlewares:configuration:)`` does; `nil` for
    ///     URLSession's default handling.
    ///   - delegateQueue: Where `delegate` is called (`.main` for a main-actor delegate); NetworkLayer's
    ///     own serial queue by default. Like `delegate`, ignored when the process's session for the
    ///     identifier exists already.
    ///   - middlewares: Run in order around every request, the first outermost; none by default.
    ///   - configuration: The provider's options; see ``Configuration``.
    ///   - sendsCredentialHeaders: Whether a background session's requests may carry credential headers,
    ///     which go along with any redirect; `false` by default. Set it only for hosts that never
    ///     redirect elsewhere. Other sessions ignore it (the provider drops such headers on a redirect).
    ///   - finishedInBackground: Called, on the session's queue, once for each transfer that ended with
    ///     no caller waiting; ignores them by default. Return quickly: every later event of the wake
    ///     waits for it, and the system gives a wake about 30 seconds. Start a `Task` for work that takes
    ///     time (unzipping, importing).
    public convenience init(
        sessionConfiguration: URLSessionConfiguration,
        delegate: (any URLSessionDelegate)? = nil,
        delegateQueue: OperationQueue? = nil,
        middlewares: [any NetworkMiddleware] = [],
        configuration: Configuration = Configuration(),
        sendsCredentialHeaders: Bool = false,
        finishedInBackground: @escaping @Sendable (BackgroundTransfer) -> Void = { _ in }
    ) {
        self.init(
            sessionConfiguration: sessionConfiguration, delegate: delegate, delegateQueue: delegateQueue,
            middlewares: middlewares, configuration: configuration,
            background: sessionConfiguration.identifier.map {
                BackgroundTasks(
                    identifier: $0, report: finishedInBackground,
                    journal: .standard(
                        for: $0, sharedContainer: sessionConfiguration.sharedContainerIdentifier))
            },
            sendsCredentialHeaders: sendsCredentialHeaders)
    }

    /// A provider on a session of its own whose tasks run as a background session's when `background` is
    /// set, whatever the configuration (Linux has no background configuration).
    // swift-format-ignore: FunctionParameterCount
    convenience init(
        sessionConfiguration: URLSessionConfiguration, delegate: (any URLSessionDelegate)?,
        delegateQueue: OperationQueue? = nil, middlewares: [any NetworkMiddleware],
        configuration: Configuration, seams: Seams = Seams(),
        background: BackgroundTasks?, sendsCredentialHeaders: Bool = false
    ) {
        // Declared before the session is made: its configuration's declared headers move onto requests.
        Credentials.declare(
            headerNames: configuration.credentialHeaders, queryNames: configuration.credentialQueryItems)
        // In an app extension, the system invalidates a background session without a shared container
        // as it is made, and its first task raises an exception: no such session is made, and every
        // transfer is refused with a typed error instead.
        if let background, seams.isAppExtension, !seams.hasSharedContainer(sessionConfiguration) {
            let refusal = NetworkError.invalidRequest(
                .backgroundSessionWithoutSharedContainer(identifier: background.identifier))
            let placeholder = URLSession(configuration: .ephemeral)
            self.init(
                session: placeholder, middlewares: middlewares, configuration: configuration, seams: seams
            ) {
                calls in
                URLSessionTransport(
                    base: placeholder, configuration: configuration, seams: seams, calls: calls, made: nil,
                    policy: nil, refusal: refusal)
            }
            return
        }
        let copy = sessionConfiguration.copy() as? URLSessionConfiguration ?? sessionConfiguration
        // With an HTTPCache, URLCache (Apple platforms) would keep every body a second time.
        if configuration.httpCache != nil { copy.urlCache = nil }
        let transfers =
            background.map {
                DelegateSession.background(like: copy, delegate: delegate, on: delegateQueue, background: $0)
            }
            ?? DelegateSession(
                configuration: copy, forwardingChallengesTo: delegate, on: delegateQueue, background: nil)
        let credentials = DelegateSession.split(sessionConfiguration.httpAdditionalHeaders).credentials
        // A session made before shares nothing of this configuration: its credential values are declared
        // here, since they are added to requests after the pipeline has seen them.
        for value in credentials.values { Credentials.declareHeaderValue(value) }
        let policy = background.map { _ in
            BackgroundPolicy(
                credentialHeaders: DelegateSession.split(sessionConfiguration.httpAdditionalHeaders)
                    .credentials,
                sendsCredentialHeaders: sendsCredentialHeaders)
        }
        self.init(
            session: transfers.session, middlewares: middlewares, configuration: configuration, seams: seams
        ) { calls in
            URLSessionTransport(
                base: transfers.session, configuration: configuration, seams: seams, calls: calls,
                made: transfers, policy: policy)
        }
    }
}
