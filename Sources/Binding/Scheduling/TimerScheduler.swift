/// Runs work after a delay: the clock behind the time operators (``Observable/debounce(for:scheduler:)``,
/// ``Observable/throttle(for:latest:scheduler:)``, ``Observable/delay(for:scheduler:)``).
///
/// Inject one so a view model's timing is testable: production code uses a ``DispatchTimerScheduler``
/// (the default), tests pass a ``ManualTimerScheduler`` and move time forward with
/// ``ManualTimerScheduler/advance(by:)`` instead of sleeping.
public protocol TimerScheduler: Sendable {
    /// Runs `action` once, `delay` from now, unless the returned subscription is cancelled first.
    ///
    /// - Parameters:
    ///   - delay: How long to wait; zero or negative runs as soon as the scheduler can.
    ///   - action: The work; it runs on the scheduler's own thread or queue.
    /// - Returns: A token: cancelling it (or releasing it) before the delay ends keeps `action` from
    ///   running.
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Subscription
}
