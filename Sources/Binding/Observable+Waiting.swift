/// A wait for a value that did not come in time: what ``Observable/value(where:within:)`` throws.
///
/// Its description names the time waited and the last values seen, so a test that fails on it says what
/// the observable held instead of hanging.
public struct ValueWaitTimeout: Error, Sendable, CustomStringConvertible {
    /// How long the wait lasted.
    public let timeout: Duration
    /// The last values seen (at most ``ValueWaitTimeout/seenLimit``), oldest first, as
    /// `String(describing:)` writes them.
    public let seen: [String]

    /// How many of the values seen are kept: the latest 8.
    public static let seenLimit = 8

    /// "No value matched within 2 s. The last values seen, oldest first: …".
    public var description: String {
        let shown = seen.isEmpty ? "none" : seen.joined(separator: ", ")
        return "No value matched within \(timeout). The last values seen, oldest first: \(shown)"
    }
}

extension Observable where Value: Sendable {
    /// The first value, the current one included, that satisfies `condition`; throws
    /// ``ValueWaitTimeout`` naming the last values seen when none does within `timeout`.
    ///
    /// For tests: a value that never comes (a scheduler nothing advances, a load that failed) fails the
    /// test with what the observable held, instead of hanging it.
    /// ```swift
    /// let shown = try await results.value(where: { $0 != .idle })
    /// ```
    /// - Parameters:
    ///   - condition: Whether a value is the one awaited; called on the thread that delivers it.
    ///   - timeout: How long to wait; 5 seconds by default.
    /// - Returns: The value.
    /// - Throws: ``ValueWaitTimeout``, or `CancellationError` when the waiting task is cancelled.
    public func value(
        where condition: @escaping @Sendable (Value) -> Bool, within timeout: Duration = .seconds(5)
    ) async throws -> Value {
        let wait = ValueWait<Value>(timeout: timeout)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                wait.begin(continuation)
                // Subscribed first: the time counts from when the values are watched.
                let subscription = subscribe { value in wait.offer(value, condition) }
                let timer = Task {
                    try? await Task.sleep(for: min(max(timeout, .zero), .longestWait))
                    wait.timeOut()
                }
                wait.hold(subscription, timer)
            }
        } onCancel: {
            wait.cancel()
        }
    }
}

/// One ``Observable/value(where:within:)`` call: resumed once, by the first matching value, the
/// timeout or cancellation, whichever comes first; then its subscription and timer end.
private final class ValueWait<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: every stored property is only touched while holding `lock`; the
    // continuation is resumed, and the subscription and timer cancelled, after unlocking.
    private let lock = Lock()
    private let timeout: Duration
    private var continuation: CheckedContinuation<Value, any Error>?
    private var finished = false
    private var seen: [String] = []
    private var subscription: Subscription?
    private var timer: Task<Void, Never>?

    init(timeout: Duration) {
        self.timeout = timeout
    }

    func begin(_ continuation: CheckedContinuation<Value, any Error>) {
        let cancelled = lock.withLock { () -> Bool in
            self.continuation = continuation
            return finished
        }
        if cancelled { finish(.failure(CancellationError())) }
    }

    /// Keeps the subscription and timer until the wait ends, or ends them now if it already has.
    func hold(_ subscription: Subscription, _ timer: Task<Void, Never>) {
        let ended = lock.withLock { () -> Bool in
            if !finished {
                self.subscription = subscription
                self.timer = timer
            }
            return finished
        }
        if ended {
            subscription.cancel()
            timer.cancel()
        }
    }

    /// Called with each value; `condition` runs outside the lock (it is the caller's code).
    func offer(_ value: Value, _ condition: (Value) -> Bool) {
        if condition(value) {
            finish(.success(value))
            return
        }
        lock.withLock {
            seen.append(String(describing: value))
            if seen.count > ValueWaitTimeout.seenLimit { seen.removeFirst() }
        }
    }

    func timeOut() {
        let seen = lock.withLock { self.seen }
        finish(.failure(ValueWaitTimeout(timeout: timeout, seen: seen)))
    }

    func cancel() {
        finish(.failure(CancellationError()))
    }

    private func finish(_ result: Result<Value, any Error>) {
        let (continuation, subscription, timer) = lock.withLock {
            () -> (CheckedContinuation<Value, any Error>?, Subscription?, Task<Void, Never>?) in
            guard !finished || self.continuation != nil else { return (nil, nil, nil) }
            finished = true
            defer { (self.continuation, self.subscription, self.timer) = (nil, nil, nil) }
            return (self.continuation, self.subscription, self.timer)
        }
        continuation?.resume(with: result)
        subscription?.cancel()
        timer?.cancel()
    }
}
