import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a background session needs of the provider's session: one per identifier for the process, and
/// no credential header it would send along a redirect.
extension TransferSession {
    /// The background sessions of this process, by identifier. URLSession allows one session per
    /// identifier, and one invalidated while its tasks run cannot be made again until they end: each is
    /// made once and kept, and a provider made again with its identifier shares it.
    fileprivate static let backgroundSessions = Locked<[String: TransferSession]>([:])

    /// The process's session for `background`'s identifier: made from `configuration` the first time,
    /// the one made before otherwise, whose orphaned tasks then report to `background`'s closure.
    static func background(
        like configuration: URLSessionConfiguration, delegate: (any URLSessionDelegate)?,
        background: BackgroundTasks
    ) -> TransferSession {
        let (session, isNew) = backgroundSessions.withLock { sessions -> (TransferSession, Bool) in
            if let made = sessions[background.identifier] { return (made, false) }
            let made = TransferSession(
                configuration: configuration, forwardingChallengesTo: delegate, on: nil,
                background: background)
            sessions[background.identifier] = made
            return (made, true)
        }
        if !isNew { session.background?.reportTo(background.currentReport) }
        return session
    }

    /// Refuses `request` on a background session that may not send credential headers when it carries
    /// one (or the configuration adds one): a background session follows redirects itself, to any
    /// host, and the redirect guard never sees them.
    func checkCredentials(of request: URLRequest, endpoint: String) throws(NetworkError) {
        guard let background, !background.sendsCredentialHeaders else { return }
        let names = Array((request.allHTTPHeaderFields ?? [:]).keys) + credentialHeaders.keys
        if let header = names.sorted().first(where: { Redaction.isSensitive(headerName: $0) }) {
            throw .invalidRequest(.credentialHeaderInBackground(endpoint: endpoint, header: header))
        }
    }
}
