import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Hands the authentication and TLS challenges of NetworkLayer's own session to the delegate of the
/// session the caller gave the provider, on that session's delegate queue (a `@MainActor` delegate on
/// `.main` stays on the main thread), so certificate pinning and credentials it implements keep applying
/// to every request. The `session` and `task` it is given are NetworkLayer's own. Without a delegate,
/// URLSession's default handling applies.
struct ChallengeForwarder: Sendable {
    typealias Answer = @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void

    private let target: Target?

    init(delegate: (any URLSessionDelegate)?, queue: OperationQueue) {
        target = delegate.map { Target(delegate: $0, queue: queue) }
    }

    /// Gives `challenge` to the caller's delegate; `answer` receives its disposition.
    func forward(
        _ challenge: URLAuthenticationChallenge, session: URLSession, task: URLSessionTask,
        answer: @escaping Answer
    ) {
        guard let target else {
            answer(.performDefaultHandling, nil)
            return
        }
        let call = Call(challenge: challenge, session: session, task: task)
        target.queue.addOperation {
            Self.deliver(call, to: target.delegate, answer: answer)
        }
    }

    private static func deliver(_ call: Call, to delegate: any URLSessionDelegate, answer: @escaping Answer) {
        let (challenge, session, task) = (call.challenge, call.session, call.task)
        #if canImport(FoundationNetworking)
            // FoundationNetworking declares the methods with default implementations (default handling)
            // and calls only the task-level one.
            if let delegate = delegate as? any URLSessionTaskDelegate {
                delegate.urlSession(session, task: task, didReceive: challenge, completionHandler: answer)
                return
            }
        #else
            // Apple platforms: the methods are optional. Our delegate implements only the task-level one,
            // so URLSession brings connection-wide challenges (server trust, client certificates, NTLM,
            // Negotiate) here too. Those go to the session-level method, as URLSession would send them,
            // then to the task-level one; a task's own challenge (Basic, Digest) only to the task-level.
            let method = challenge.protectionSpace.authenticationMethod
            let connectionWide = [
                NSURLAuthenticationMethodServerTrust, NSURLAuthenticationMethodClientCertificate,
                NSURLAuthenticationMethodNTLM, NSURLAuthenticationMethodNegotiate,
            ].contains(method)
            if connectionWide,
                delegate.urlSession?(session, didReceive: challenge, completionHandler: answer) != nil
            {
                return
            }
            if let delegate = delegate as? any URLSessionTaskDelegate,
                delegate.urlSession?(session, task: task, didReceive: challenge, completionHandler: answer)
                    != nil
            {
                return
            }
        #endif
        answer(.performDefaultHandling, nil)
    }

    /// The caller's delegate and the queue its session calls it on.
    private struct Target: @unchecked Sendable {
        // @unchecked Sendable: the delegate is only called on `queue`, the queue its own session calls it
        // on, as URLSession does; OperationQueue is thread-safe. Neither reference is mutated.
        let delegate: any URLSessionDelegate
        let queue: OperationQueue
    }

    /// One challenge on its way to the delegate queue.
    private struct Call: @unchecked Sendable {
        // @unchecked Sendable: handed to the delegate queue once and only read there; URLSession passes
        // the same objects across its own queues.
        let challenge: URLAuthenticationChallenge
        let session: URLSession
        let task: URLSessionTask
    }
}
