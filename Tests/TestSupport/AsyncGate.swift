import Foundation

/// Holds async callers at ``enter()`` until the test calls ``open()``, and lets the test wait until a
/// caller has arrived: a way to keep work in flight without sleeping.
public final class AsyncGate: @unchecked Sendable {
    // @unchecked Sendable: every field is only touched while holding `lock`.
    private let lock = NSLock()
    private var isOpen = false
    private var entered = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Creates a closed gate.
    public init() {}

    /// Waits until the gate is open (returns at once if it already is).
    public func enter() async {
        await withCheckedContinuation { continuation in
            lock.lock()
            entered += 1
            if isOpen {
                lock.unlock()
                continuation.resume()
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }

    /// Opens the gate for everyone waiting and everyone to come.
    public func open() {
        lock.lock()
        isOpen = true
        let waiting = waiters
        waiters = []
        lock.unlock()
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once at least `count` callers have reached ``enter()``.
    public func waitUntilEntered(_ count: Int = 1) async {
        await waitWhile { enteredCount < count }
    }

    private var enteredCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return entered
    }
}
