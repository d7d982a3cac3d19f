import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Races an operation against a deadline, without relying on the transport to honour its own timeout
/// (URLSession on Linux truncates sub-second timeouts and ignores them for custom protocols).
///
/// The operation runs apart from the caller (a URLSession data task, or a task of its own), so it can be
/// cancelled on a timeout without cancelling the caller; whichever finishes first, the operation or the
/// deadline, resumes the caller. Cancelling the caller cancels the operation (a URLSession data task on
/// Linux is abandoned instead). With the default `ContinuousClock` the deadline is watched by the shared
/// ``DeadlineTimer``, one dispatch timer armed for the earliest deadline (a timer created per request
/// costs about 10 µs on Linux); an injected clock, as in tests, is slept on by a task instead.
enum Timeout {
    /// Stops an operation that is still running.
    typealias Cancel = @Sendable () -> Void

    /// Runs `operation` in a task of its own, racing `timeout`.
    static func run<Result: Sendable>(
        after timeout: Duration,
        clock: any Clock<Duration>,
        deadlines: DeadlineTimer = .shared,
        operation: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        try await race(after: timeout, clock: clock, deadlines: deadlines) { finish in
            let work = startTask {
                do {
                    finish(.success(try await operation()))
                } catch {
                    finish(.failure(error))
                }
            }
            return { work.cancel() }
        }
    }

    /// Races an operation that reports its outcome through `finish` and can be stopped through the
    /// `Cancel` it returns. URLSession's data tasks run this way with no Swift task of their own, so a
    /// request costs no more thread hops than `data(for:)`.
    static func race<Result: Sendable>(
        after timeout: Duration?,
        clock: any Clock<Duration>,
        deadlines: DeadlineTimer = .shared,
        start: (@escaping @Sendable (Swift.Result<Result, any Error>) -> Void) -> Cancel
    ) async throws -> Result {
        let race = Race<Result>()
        let cancel = start { race.finish(with: $0) }
        race.setOnTimeout(cancel)
        if let timeout { race.startDeadline(after: timeout, clock: clock, deadlines: deadlines) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { race.attach($0) }
        } onCancel: {
            cancel()
        }
    }

    /// Waits for an operation that reports its outcome through `finish` and can be stopped through the
    /// `Cancel` it returns, with no deadline: cancelling the caller stops it.
    static func untimed<Result: Sendable>(
        start: (@escaping @Sendable (Swift.Result<Result, any Error>) -> Void) -> Cancel
    ) async throws -> Result {
        try await race(after: nil, clock: ContinuousClock(), start: start)
    }
}

extension Race {
    /// Decides the race as timed out once `timeout` passes on `clock`, unless it is decided first.
    fileprivate func startDeadline(
        after timeout: Duration, clock: any Clock<Duration>, deadlines: DeadlineTimer
    ) {
        let race = self
        if clock is ContinuousClock {
            let deadline = DeadlineTimer.deadline(after: timeout, from: DeadlineTimer.now)
            let watch = deadlines.watch(until: deadline) { _ in
                race.timeOut(timeout)
                return nil
            }
            race.setDeadline { deadlines.cancel(watch) }
        } else {
            let timer = Task {
                // Clamped: a clock's `sleep` traps on a span past `Int64.max` seconds either way.
                let span = min(max(timeout, .zero), .longestSleep)
                guard (try? await clock.sleep(for: span, tolerance: nil)) != nil else { return }
                race.timeOut(timeout)
            }
            race.setDeadline { timer.cancel() }
        }
    }
}

/// Starts `body` in a task of its own. Where the toolchain has `Task.immediate` (Swift 6.2), the task
/// begins on the caller's thread and runs until its first suspension, which saves a thread hop per
/// request; otherwise it is scheduled like any task.
func startTask(_ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
    #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return Task.immediate { await body() }
        }
    #endif
    return Task { await body() }
}

/// The shared state of one race: the caller's continuation, the first outcome, and the deadline to
/// cancel once the race is decided.
final class Race<Value: Sendable>: Sendable {
    private struct State: Sendable {
        var continuation: CheckedContinuation<Value, any Error>?
        var outcome: Result<Value, any Error>?
        var isDecided = false
        var deadline: Timeout.Cancel?
        var onTimeout: Timeout.Cancel?
    }

    private let state = Locked(State())

    /// Records the first outcome; later ones are ignored. Returns whether this call decided the race.
    @discardableResult
    func finish(with result: Result<Value, any Error>) -> Bool {
        let (decided, continuation, deadline, onTimeout) = state.withLock { state in
            guard !state.isDecided else {
                return (
                    false, nil as CheckedContinuation<Value, any Error>?, nil as Timeout.Cancel?,
                    nil as Timeout.Cancel?
                )
            }
            state.isDecided = true
            let continuation = state.continuation
            if continuation == nil { state.outcome = result }
            // Moved out, so the closures (and the session work they hold) are released after unlocking.
            defer {
                state.continuation = nil
                state.deadline = nil
                state.onTimeout = nil
            }
            return (true, continuation, state.deadline, state.onTimeout)
        }
        deadline?()
        continuation?.resume(with: result)
        withExtendedLifetime(onTimeout) {}
        return decided
    }

    /// Decides the race as timed out, and stops the operation, unless it was already decided.
    func timeOut(_ timeout: Duration) {
        let cancel = state.withLock { $0.onTimeout }
        if finish(with: .failure(NetworkError.timedOut(timeout))) { cancel?() }
    }

    /// How to stop the operation when the deadline wins; not kept once the race is decided.
    func setOnTimeout(_ cancel: @escaping Timeout.Cancel) {
        state.withLock { state in
            if !state.isDecided { state.onTimeout = cancel }
        }
    }

    /// Gives the race the caller's continuation; resumes it at once if the race is already decided.
    func attach(_ continuation: CheckedContinuation<Value, any Error>) {
        let outcome = state.withLock { state -> Result<Value, any Error>? in
            guard let outcome = state.outcome else {
                state.continuation = continuation
                return nil
            }
            state.outcome = nil
            return outcome
        }
        if let outcome { continuation.resume(with: outcome) }
    }

    /// Keeps the deadline's cancellation, run when the race is decided (at once if it already is).
    func setDeadline(_ cancel: @escaping Timeout.Cancel) {
        let decided = state.withLock { state -> Bool in
            if state.isDecided { return true }
            state.deadline = cancel
            return false
        }
        if decided { cancel() }
    }
}
