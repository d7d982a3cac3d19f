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
    /// ``NetworkError/InvalidRequest/backgroundSession(endpoint:)`` before any task is made.
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
    ///     downloads.handleBackgroundEvents(completionHandler: completionHandler)
    /// }
    /// ```
    ///
    /// With any other configuration, the provider works as one given a session of that configuration
    /// (see ``init(session:middlewares:configuration:)``).
    ///
    /// - Parameters:
    ///   - sessionConfiguration: The session's configuration; copied.
    ///   - delegate: Answers the session's authentication and TLS challenges (certificate pinning), as the
    ///     delegate of a session given to ``init(session:middlewares:configuration:)`` does; `nil` for
    ///     URLSession's default handling.
    ///   - middlewares: Run in order around every request, the first outermost; none by default.
    ///   - configuration: The provider's options; see ``Configuration``.
    ///   - finishedInBackground: Called, on the session's queue, once for each transfer that ended with
    ///     no caller waiting; ignores them by default.
    public convenience init(
        sessionConfiguration: URLSessionConfiguration,
        delegate: (any URLSessionDelegate)? = nil,
        middlewares: [any NetworkMiddleware] = [],
        configuration: Configuration = Configuration(),
        finishedInBackground: @escaping @Sendable (BackgroundTransfer) -> Void = { _ in }
    ) {
        self.init(
            sessionConfiguration: sessionConfiguration, delegate: delegate, middlewares: middlewares,
            configuration: configuration,
            background: sessionConfiguration.identifier == nil
                ? nil : BackgroundTasks(report: finishedInBackground))
    }

    /// A provider on a session of its own whose tasks run as a background session's when `background` is
    /// set, whatever the configuration (Linux has no background configuration).
    convenience init(
        sessionConfiguration: URLSessionConfiguration, delegate: (any URLSessionDelegate)?,
        middlewares: [any NetworkMiddleware], configuration: Configuration, background: BackgroundTasks?
    ) {
        let transfers = TransferSession(
            configuration: sessionConfiguration.copy() as? URLSessionConfiguration ?? sessionConfiguration,
            forwardingChallengesTo: delegate, on: nil, background: background)
        self.init(session: transfers.session, middlewares: middlewares, configuration: configuration)
        transferSession.withLock { $0 = transfers }
    }

    /// Calls `completionHandler`, on the main queue, once the provider's background session has delivered
    /// the events the system relaunched the app for (at once when it already has, or when the session is
    /// not a background session). Call it from your app delegate's
    /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)` when the identifier is
    /// this provider's.
    /// - Parameter completionHandler: The handler the system gave the app delegate.
    @MainActor
    public func handleBackgroundEvents(completionHandler: @escaping () -> Void) {
        let handler = MainQueueHandler(call: completionHandler)
        guard let background = transferSession.withLock({ $0 })?.background else {
            DispatchQueue.main.async { handler.call() }
            return
        }
        background.handleEvents { handler.call() }
    }
}

/// The system's events handler, received on the main actor and called only on the main queue.
// @unchecked Sendable: `call` is a main-actor closure UIKit gives the app delegate; it is stored here
// and called only from `DispatchQueue.main` (``BackgroundTasks``' handler queue for a provider, and
// `handleBackgroundEvents` itself), so it never runs off the main thread.
private struct MainQueueHandler: @unchecked Sendable {
    let call: () -> Void
}
