import Dispatch
import Foundation

/// Runs work that might deadlock, so a test can fail instead of hanging the whole run.
///
/// `body` runs on a thread of its own; the caller waits for it at most `seconds`. A body that never
/// returns is reported as `false` and its thread is left blocked: the test fails, the suite goes on.
public enum Watchdog {
    /// Whether `body` returned within `seconds`.
    /// - Parameters:
    ///   - seconds: How long to wait; 30 by default, far above any healthy run even when the whole suite
    ///     loads the machine (5 s was not, under ThreadSanitizer on two cores).
    ///   - body: The work that must not hang.
    /// - Returns: `true` when `body` returned in time.
    public static func finishes(within seconds: Double = 30, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.start()
        return done.wait(timeout: .now() + seconds) == .success
    }
}

extension Watchdog {
    /// Whether the async `body` returned within `seconds`.
    /// - Parameters:
    ///   - seconds: How long to wait; 30 by default.
    ///   - body: The work that must not hang.
    /// - Returns: `true` when `body` returned in time.
    public static func finishes(
        within seconds: Double = 30, _ body: @escaping @Sendable () async -> Void
    ) async -> Bool {
        let outcome = FirstOutcome()
        return await withCheckedContinuation { continuation in
            outcome.setContinuation(continuation)
            Task {
                await body()
                outcome.decide(true)
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { outcome.decide(false) }
        }
    }
}

/// Resumes a continuation with the first of two outcomes.
private final class FirstOutcome: @unchecked Sendable {
    // @unchecked Sendable: both fields are only touched while holding `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Bool, Never>?
    private var decided = false

    func setContinuation(_ continuation: CheckedContinuation<Bool, Never>) {
        lock.lock()
        self.continuation = continuation
        lock.unlock()
    }

    func decide(_ value: Bool) {
        lock.lock()
        let continuation = decided ? nil : self.continuation
        decided = true
        lock.unlock()
        continuation?.resume(returning: value)
    }
}
