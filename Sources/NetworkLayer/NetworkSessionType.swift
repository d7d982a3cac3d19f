import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport seam: a request in, the body and the HTTP response out.
///
/// `URLSession` conforms. The library also ships ``StubSession`` (closure-backed, for tests and previews)
/// and ``RecordReplaySession`` (real exchanges stored in a folder and replayed offline). Implement it to
/// put any client behind ``NetworkProvider``.
public protocol NetworkSessionType: Sendable {
    /// Sends `request` and returns the body and the HTTP response.
    /// - Parameter request: The request to send.
    /// - Returns: The body and the response, whatever its status.
    /// - Throws: A `URLError` for transport failures; `CancellationError` or `URLError.cancelled` when
    ///   the calling task is cancelled.
    func response(for request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

extension URLSession: NetworkSessionType {
    /// Sends `request` as a data task whose redirects to another origin lose their credential headers
    /// (see ``Redaction``): URLSession on its own copies every header to the new host.
    ///
    /// Cancelling the calling task cancels the data task.
    ///
    /// - Important: The task's own delegate decides redirects, so a redirect policy in the session's
    ///   delegate (`urlSession(_:task:willPerformHTTPRedirection:…)`) is not consulted for these
    ///   requests; a task delegate takes precedence over the session's. Send through `dataTask` yourself
    ///   to keep such a policy.
    /// - Parameter request: The request to send.
    /// - Returns: The body and the HTTP response.
    /// - Throws: The session's `URLError` (`.cancelled` when the calling task is cancelled), or
    ///   `URLError(.badServerResponse)` for a non-HTTP response.
    public func response(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let handle = CancellableDataTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                handle.start(guardedDataTask(with: request) { continuation.resume(with: $0) })
            }
        } onCancel: {
            handle.cancel()
        }
    }
}

/// A data task that a cancellation arriving before, during or after its start stops exactly once.
private final class CancellableDataTask: Sendable {
    private struct State: @unchecked Sendable {
        // @unchecked Sendable: URLSessionTask is documented thread-safe for `resume()` and `cancel()`,
        // the only calls made through it; FoundationNetworking does not annotate it `Sendable`.
        var task: URLSessionDataTask?
        var isCancelled = false
    }

    private let state = Locked(State())

    /// Resumes `task`, or cancels it at once if the caller was cancelled before it started.
    func start(_ task: URLSessionDataTask) {
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.isCancelled
        }
        task.resume()
        if cancelled { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state -> URLSessionDataTask? in
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
    }
}
