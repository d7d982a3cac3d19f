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
    /// Cancelling the calling task cancels the data task (on Linux it is abandoned instead: the caller is
    /// answered at once and the transfer finishes in the background, because FoundationNetworking traps
    /// when a cancel races the task's completion). A task cancelled before the request starts sends nothing.
    ///
    /// - Important: The task's own delegate decides redirects, so a redirect policy in the session's
    ///   delegate (`urlSession(_:task:willPerformHTTPRedirection:…)`) is not consulted for these
    ///   requests; a task delegate takes precedence over the session's. Send through `dataTask` yourself
    ///   to keep such a policy.
    /// - Parameter request: The request to send.
    /// - Returns: The body and the HTTP response.
    /// - Throws: The session's `URLError` (`.cancelled` when the calling task is cancelled), or
    ///   `URLError(.badServerResponse)` for a non-HTTP response; on a background session, which allows
    ///   no completion handler, ``NetworkError/InvalidRequest/backgroundSession(endpoint:)`` before any
    ///   task is made.
    public func response(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        guard configuration.identifier == nil else {
            throw NetworkError.invalidRequest(
                .backgroundSession(endpoint: "\(request.httpMethod ?? "GET") \(request.url?.path ?? "")"))
        }
        let handle = CancellableDataTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                handle.start(guardedDataTask(with: request) { handle.finish($0) }, reportingTo: continuation)
            }
        } onCancel: {
            handle.cancel()
        }
    }
}

/// A data task whose caller is answered exactly once, whether the task completes or the caller is
/// cancelled before, during or after its start. A caller cancelled before the start sends nothing.
///
/// On Linux a cancelled request is abandoned, not cancelled: FoundationNetworking traps ("Trying to
/// access a behaviour for a task that in not in the registry") when `URLSessionTask.cancel()` races the
/// task's completion, seen when a search cancels the previous one as the user types. The caller is
/// answered at once with `URLError(.cancelled)`; the transfer finishes (or times out) in the background
/// and its result is dropped. See ``abandonsInsteadOfCancelling``.
private final class CancellableDataTask: Sendable {
    private struct State: @unchecked Sendable {
        // @unchecked Sendable: URLSessionTask is documented thread-safe for `resume()` and `cancel()`,
        // the only calls made through it; FoundationNetworking does not annotate it `Sendable`.
        var task: URLSessionDataTask?
        var continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>?
        var isCancelled = false
    }

    private let state = Locked(State())

    /// Resumes `task`, or, if the caller was cancelled before the start, answers it without sending.
    func start(
        _ task: URLSessionDataTask,
        reportingTo continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>
    ) {
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            state.continuation = continuation
            return state.isCancelled
        }
        if cancelled {
            // Never resumed, so no completion can race this cancel; it takes the task out of the
            // session's registry.
            task.cancel()
            finish(.failure(URLError(.cancelled)))
        } else {
            task.resume()
        }
    }

    /// Answers the caller, the first time only.
    func finish(_ result: Result<(Data, HTTPURLResponse), any Error>) {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
    }

    func cancel() {
        let task = state.withLock { state -> URLSessionDataTask? in
            state.isCancelled = true
            return state.task
        }
        if abandonsInsteadOfCancelling {
            finish(.failure(URLError(.cancelled)))
        } else {
            task?.cancel()
        }
    }
}

/// Whether a cancelled URLSession request is abandoned (answered at once, left to finish in the
/// background) rather than cancelled: on Linux, where `cancel()` racing a completion traps inside
/// FoundationNetworking.
let abandonsInsteadOfCancelling = runsOnFoundationNetworking
