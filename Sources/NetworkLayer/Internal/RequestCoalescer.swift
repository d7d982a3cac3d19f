import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Shares one transport call between identical requests in flight at the same time.
///
/// Requests are identical when their method, URL and headers are. The shared call is not cancelled when
/// one of its callers is; it finishes for the others.
final class RequestCoalescer: Sendable {
    private let inFlight = Locked<[String: Task<(Data, HTTPURLResponse), any Error>]>([:])
    private let waiters = Locked(0)

    /// How many callers are waiting for a shared call (for tests).
    var waitingCount: Int { waiters.withLock { $0 } }

    func response(
        for request: URLRequest, from session: any NetworkSessionType
    ) async throws -> (Data, HTTPURLResponse) {
        let key = Self.key(for: request)
        waiters.withLock { $0 += 1 }
        defer { waiters.withLock { $0 -= 1 } }
        let task = inFlight.withLock { inFlight in
            if let running = inFlight[key] { return running }
            let task = Task {
                defer {
                    // The handle leaves the table under the lock and is released after unlocking.
                    let finished = self.inFlight.withLock { $0.removeValue(forKey: key) }
                    withExtendedLifetime(finished) {}
                }
                return try await session.response(for: request)
            }
            inFlight[key] = task
            return task
        }
        return try await task.value
    }

    private static func key(for request: URLRequest) -> String {
        let headers = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }
            .map { "\($0.key.lowercased()):\($0.value)" }.joined(separator: "\n")
        return "\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "")\n\(headers)"
    }
}
