import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A background session: one per identifier for the process.
extension TransferSession {
    /// The background sessions of this process, by identifier. URLSession allows one session per
    /// identifier, and one invalidated while its tasks run cannot be made again until they end: each is
    /// made once and kept, and a provider made again with its identifier shares it.
    fileprivate static let backgroundSessions = Locked<[String: TransferSession]>([:])

    /// The process's session for `background`'s identifier: made from `configuration` the first time,
    /// the one made before otherwise, whose orphaned tasks then report to `background`'s closure.
    static func background(
        like configuration: URLSessionConfiguration, delegate: (any URLSessionDelegate)?,
        on delegateQueue: OperationQueue?, background: BackgroundTasks
    ) -> TransferSession {
        let (session, isNew) = backgroundSessions.withLock { sessions -> (TransferSession, Bool) in
            if let made = sessions[background.identifier] { return (made, false) }
            let made = TransferSession(
                configuration: configuration, forwardingChallengesTo: delegate, on: delegateQueue,
                background: background)
            sessions[background.identifier] = made
            return (made, true)
        }
        if !isNew { session.background?.reportTo(background.currentReport) }
        return session
    }
}
