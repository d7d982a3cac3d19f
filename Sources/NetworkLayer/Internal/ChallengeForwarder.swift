import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Hands the authentication and TLS challenges of NetworkLayer's own session to the delegate of the
/// session the caller gave the provider, so certificate pinning and credentials it implements keep
/// applying to every request. Without such a delegate, URLSession's default handling applies.
struct ChallengeForwarder: @unchecked Sendable {
    // @unchecked Sendable: URLSession calls its delegate from any queue, so a session delegate must
    // already be safe to call from any thread; the reference is never mutated.
    let delegate: (any URLSessionDelegate)?

    func forward(
        _ challenge: URLAuthenticationChallenge, session: URLSession, task: URLSessionTask,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
            // FoundationNetworking declares the delegate methods with default implementations (default
            // handling) and calls only the task-level one.
            if let delegate = delegate as? any URLSessionTaskDelegate {
                delegate.urlSession(
                    session, task: task, didReceive: challenge, completionHandler: completionHandler)
                return
            }
        #else
            // Apple platforms: the methods are optional. Our delegate implements only the task-level one,
            // so URLSession brings session-wide challenges (server trust, client certificates) here too.
            // Each goes where URLSession would take it: a session-wide one to the session-level method
            // first, any other to the task-level method first, then to the other one.
            let method = challenge.protectionSpace.authenticationMethod
            let sessionWide =
                method == NSURLAuthenticationMethodServerTrust
                || method == NSURLAuthenticationMethodClientCertificate
            if sessionWide, forwardToSession(challenge, session, completionHandler) { return }
            if let delegate = delegate as? any URLSessionTaskDelegate,
                delegate.urlSession?(
                    session, task: task, didReceive: challenge, completionHandler: completionHandler) != nil
            {
                return
            }
            if !sessionWide, forwardToSession(challenge, session, completionHandler) { return }
        #endif
        completionHandler(.performDefaultHandling, nil)
    }

    #if !canImport(FoundationNetworking)
        /// Calls the session-level challenge method of the caller's delegate; `false` when it has none.
        private func forwardToSession(
            _ challenge: URLAuthenticationChallenge, _ session: URLSession,
            _ completionHandler:
                @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) -> Bool {
            delegate?.urlSession?(session, didReceive: challenge, completionHandler: completionHandler) != nil
        }
    #endif
}
