import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session a provider on a `URLSession` runs its requests on (see ``TransferSession``).
extension NetworkProvider {
    /// The session every request goes through when the transport is a `URLSession`: one of NetworkLayer's
    /// own, made once from that session's configuration and forwarding challenges to its delegate (or the
    /// one a provider made with a session configuration owns).
    /// - Throws: ``NetworkError/InvalidRequest/backgroundSession(endpoint:)`` for a background session
    ///   given to the provider.
    func transfers(for urlSession: URLSession, endpoint name: String) throws(NetworkError) -> TransferSession
    {
        let made = transferSession.withLock { session -> TransferSession? in
            if let session { return session }
            session = TransferSession(like: urlSession)
            return session
        }
        guard let made else { throw .invalidRequest(.backgroundSession(endpoint: name)) }
        return made
    }

    /// ``transfers(for:endpoint:)`` for a request that needs a data task or an upload from memory, which
    /// a background session refuses.
    func dataTransfers(for urlSession: URLSession, endpoint name: String) throws(NetworkError)
        -> TransferSession
    {
        let transfers = try transfers(for: urlSession, endpoint: name)
        guard !transfers.isBackground else { throw .invalidRequest(.backgroundSession(endpoint: name)) }
        return transfers
    }
}
