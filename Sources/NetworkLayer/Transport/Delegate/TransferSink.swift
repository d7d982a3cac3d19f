import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a transfer feeds as its body arrives: a ``ResponseSink`` (every transfer but a download task) or
/// a ``DownloadTaskSink``. Its methods are called on the delegate session's serial queue, except
/// `close`, which a timeout or a cancellation may call from any thread: implementations are
/// thread-safe.
protocol TransferSink: Sendable {
    /// The response head arrived; throw to refuse the body (the transfer fails with that error).
    func open(_ head: HTTPURLResponse) throws
    /// The next bytes; throw to stop the transfer (a full disk).
    func write(_ data: Data) throws
    /// The transfer ended: `nil` when the whole body arrived.
    func close(_ error: (any Error)?)
}

/// Lets a task be cancelled from another thread.
struct TaskHandle: @unchecked Sendable {
    // @unchecked Sendable: only `cancel()` is called through it, which URLSessionTask documents as
    // thread-safe; FoundationNetworking does not annotate the class `Sendable`.
    let task: URLSessionTask
}

/// The bytes of a transfer so far, for progress reporting.
struct TransferCounts: Sendable {
    var received: Int64 = 0
    var sent: Int64 = 0
}
