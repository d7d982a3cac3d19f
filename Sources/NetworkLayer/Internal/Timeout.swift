/// Races an operation against a deadline, without relying on the transport to honour its own timeout
/// (URLSession on Linux truncates sub-second timeouts and ignores them for custom protocols).
///
/// The operation runs in its own task; whichever finishes first, the operation or the clock, resumes
/// the caller, and a timed-out operation is cancelled and left to wind down. Cancelling the caller
/// cancels the operation.
enum Timeout {
    static func run<Result: Sendable>(
        after timeout: Duration,
        clock: any Clock<Duration>,
        operation: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        let work = Task { try await operation() }
        let timer = Task {
            try await clock.sleep(for: timeout, tolerance: nil)
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Result, any Error>) in
                let once = ResumeOnce(continuation)
                Task {
                    do {
                        once.resume(with: .success(try await work.value))
                    } catch {
                        once.resume(with: .failure(error))
                    }
                    timer.cancel()
                }
                Task {
                    guard (try? await timer.value) != nil else { return }
                    if once.resume(with: .failure(NetworkError.timedOut(timeout))) { work.cancel() }
                }
            }
        } onCancel: {
            work.cancel()
            timer.cancel()
        }
    }
}

/// Resumes a continuation exactly once, from whichever side gets there first.
final class ResumeOnce<Value: Sendable>: Sendable {
    private let continuation: Locked<CheckedContinuation<Value, any Error>?>

    init(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation = Locked(continuation)
    }

    /// Returns whether this call did the resuming.
    @discardableResult
    func resume(with result: Result<Value, any Error>) -> Bool {
        let taken = continuation.withLock { stored -> CheckedContinuation<Value, any Error>? in
            defer { stored = nil }
            return stored
        }
        taken?.resume(with: result)
        return taken != nil
    }
}
