import Dispatch

/// A ``TimerScheduler`` on a dispatch queue: the default clock of the time operators.
///
/// Actions run on `queue` when their delay ends (measured on the monotonic clock, so a change of the
/// wall clock does not move them). An action cancelled before it starts never runs, even if its time
/// has come and it is waiting for the queue.
public struct DispatchTimerScheduler: TimerScheduler {
    /// The queue the actions run on.
    public let queue: DispatchQueue

    /// Creates a scheduler that runs its actions on `queue`.
    /// - Parameter queue: Where actions run; a global queue by default, so a view's main queue is not
    ///   woken for a timer whose result it may never see.
    public init(queue: DispatchQueue = .global()) {
        self.queue = queue
    }

    /// Runs `action` on ``queue`` after `delay`, unless cancelled first.
    /// - Parameters:
    ///   - delay: How long to wait; zero or negative runs as soon as the queue can.
    ///   - action: The work.
    /// - Returns: A token that cancels the action if it has not run.
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Subscription {
        let active = ActiveFlag()
        queue.asyncAfter(deadline: .now() + delay.dispatchInterval) {
            if active.isActive { action() }
        }
        return Subscription { active.deactivate() }
    }
}

extension TimerScheduler where Self == DispatchTimerScheduler {
    /// A scheduler on a global dispatch queue.
    public static var dispatch: DispatchTimerScheduler { DispatchTimerScheduler() }

    /// A scheduler on `queue`.
    /// - Parameter queue: Where actions run.
    /// - Returns: A scheduler running its actions on `queue`.
    public static func dispatch(on queue: DispatchQueue) -> DispatchTimerScheduler {
        DispatchTimerScheduler(queue: queue)
    }
}

extension Duration {
    /// This duration as a dispatch interval in nanoseconds: negative as zero, too long as "a century",
    /// so no duration a caller passes can overflow dispatch's arithmetic.
    var dispatchInterval: DispatchTimeInterval {
        // Compared before `components`, which traps past `Int64.max` seconds.
        guard self > .zero else { return .nanoseconds(0) }
        guard self < .longestWait else { return .seconds(Int(Duration.longestWait.components.seconds)) }
        let (seconds, attoseconds) = components
        return .nanoseconds(Int(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }

    /// A century: the longest wait Binding schedules or sleeps; a longer one (`.seconds(Int64.max)`, the
    /// usual way to say "no limit") is this, since `Task.sleep` and Dispatch trap or overflow past a few
    /// hundred years.
    static var longestWait: Duration { .seconds(100 * 365 * 24 * 3600) }
}
