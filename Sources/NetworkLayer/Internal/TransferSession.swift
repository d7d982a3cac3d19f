import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A URLSession of NetworkLayer's own for transfers whose bytes it must see as they arrive (streams,
/// downloads to a file, uploads with progress): data tasks on a session whose delegate hands each
/// task's events to its ``TransferHandler``. URLSession on Linux gives no per-task delegate for data and
/// no `bytes(for:)`, so a session delegate is the one way that works on every platform.
///
/// It is made from the provider's `URLSession`'s configuration (headers, cookies, credentials, proxy,
/// limits), without a `URLCache`, so transfers are not cached. Its tasks are cancelled (streams must be
/// able to end a connection), unlike whole-body requests on Linux, which are abandoned: FoundationNetworking
/// trapped when `cancel()` raced a completion on sessions with a cache (another project traced the window
/// to the cache lookup made before a task's protocol exists). Without a cache, a stress test cancelling
/// 150 streams around their end, also under ThreadSanitizer, has not trapped; that is evidence, not proof.
/// The provider's session's delegate is not consulted for these tasks.
final class TransferSession: Sendable {
    let session: URLSession
    private let delegate: TransferDelegate

    init(configuration base: URLSessionConfiguration) {
        let configuration = base.copy() as? URLSessionConfiguration ?? .ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "NetworkLayer.TransferSession"
        delegate = TransferDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    /// Starts `request` (uploading `body`, when given) and reports its events to `handler`.
    func start(_ request: URLRequest, uploading body: UploadBody? = nil, handler: TransferHandler) {
        let task =
            switch body {
            case .file(let file): session.uploadTask(with: request, fromFile: file)
            case .data(let data): session.uploadTask(with: request, from: data)
            case nil: session.dataTask(with: request)
            }
        delegate.register(handler, for: task)
        handler.start(task)
    }

    /// Lets running transfers finish, then releases the session and its delegate.
    func invalidate() {
        session.finishTasksAndInvalidate()
    }
}

/// What an upload sends: a file, streamed from disk by URLSession, or bytes in memory.
enum UploadBody: Sendable {
    case file(URL)
    case data(Data)
}

/// Routes each task's delegate events to its handler.
private final class TransferDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let handlers = Locked<[Int: TransferHandler]>([:])

    func register(_ handler: TransferHandler, for task: URLSessionTask) {
        handlers.withLock { $0[task.taskIdentifier] = handler }
    }

    private func handler(for task: URLSessionTask) -> TransferHandler? {
        handlers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let proceeds = handler(for: dataTask)?.receive(head: response) ?? false
        completionHandler(proceeds ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        handler(for: dataTask)?.receive(data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        handler(for: task)?.sent(totalBytesSent)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let handler = handlers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        handler?.complete(error: error)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(RedirectGuard.redirect(request, from: task.originalRequest?.url ?? response.url))
    }
}
