import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a background session's requests may carry, and the transfers it runs.
extension URLSessionTransport {
    func runningTransfers() async -> [RunningTransfer] {
        guard let transfers = made.withLock({ $0 }), transfers.isBackground else { return [] }
        let tasks = await withCheckedContinuation { (answer: CheckedContinuation<[TaskHandle], Never>) in
            transfers.session.getAllTasks { tasks in answer.resume(returning: tasks.map(TaskHandle.init)) }
        }
        return tasks.compactMap(RunningTransfer.init)
    }

    /// `request` as a background session sends it: with this provider's configuration's credential
    /// headers it does not set itself, refused when it carries a credential header this provider may not
    /// send (a background session follows redirects itself, to any host, and no guard sees them).
    func backgroundRequest(_ request: URLRequest, endpoint: String) throws(NetworkError) -> URLRequest {
        // Without a policy of its own, a provider sends no credential header of its configuration and
        // may send none.
        let policy = policy ?? BackgroundPolicy(credentialHeaders: [:], sendsCredentialHeaders: false)
        var request = request
        // In a fixed order: names that differ only in case are one header, the first in that order.
        for (name, value) in policy.credentialHeaders.sorted(by: { $0.key < $1.key })
        where request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value, forHTTPHeaderField: name)
        }
        guard !policy.sendsCredentialHeaders else { return request }
        let names = (request.allHTTPHeaderFields ?? [:]).keys.sorted()
        if let header = names.first(where: { Redaction.isSensitive(headerName: $0) }) {
            throw .invalidRequest(.credentialHeaderInBackground(endpoint: endpoint, header: header))
        }
        return request
    }
}

/// What a provider on a background session adds to its requests and refuses in them.
struct BackgroundPolicy: Sendable {
    /// Its configuration's credential headers.
    let credentialHeaders: [String: String]
    /// Whether its requests may carry credential headers.
    let sendsCredentialHeaders: Bool
}
