import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The least a client can do that sees a body as it arrives, which is what bounding it takes: a session
/// delegate that appends each chunk and answers its caller at the end, on a serial delegate queue as the
/// provider's own session has. No limit, no timeout, no middleware: the floor under the provider's cost.
final class DelegateRequests: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked Sendable: `waiting` is only touched while holding `lock`; the session is immutable.
    private let lock = NSLock()
    private var waiting: [Int: (continuation: CheckedContinuation<Data, any Error>, body: Data)] = [:]
    private(set) var session: URLSession!

    init(configuration: URLSessionConfiguration) {
        super.init()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
    }

    /// Sends `request` and returns its body.
    func data(for request: URLRequest) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: request)
            lock.lock()
            waiting[task.taskIdentifier] = (continuation, Data())
            lock.unlock()
            task.resume()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        waiting[dataTask.taskIdentifier]?.body.append(data)
        lock.unlock()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        let waiter = waiting.removeValue(forKey: task.taskIdentifier)
        lock.unlock()
        guard let waiter else { return }
        if let error {
            waiter.continuation.resume(throwing: error)
        } else {
            waiter.continuation.resume(returning: waiter.body)
        }
    }
}
