/// A ``TimerScheduler`` whose time moves only when a test says so.
///
/// Nothing runs on its own: ``advance(by:)`` moves the clock and runs every action that has come due, in
/// order of due time (actions due at the same moment in the order they were scheduled), on the calling
/// thread, before it returns. An action that schedules another one due within the advanced span runs in
/// the same call.
///
/// ```swift
/// let scheduler = ManualTimerScheduler()
/// let settled = query.debounce(for: .milliseconds(250), scheduler: scheduler)
/// query.value = "av"
/// scheduler.advance(by: .milliseconds(249))   // nothing yet
/// scheduler.advance(by: .milliseconds(1))     // settled.value == "av"
/// ```
///
/// Only the scheduler's own work is synchronous: a debounce, throttle or delay publishes before
/// `advance` returns. A value published from another thread, such as a `mapLatest` result (published
/// when its task finishes), arrives later; await it with `await observable.values.first { … }`.
public final class ManualTimerScheduler: TimerScheduler {
    private struct Entry: Sendable {
        let due: Duration
        let sequence: UInt64
        let active: ActiveFlag
        let action: @Sendable () -> Void
    }

    private struct State: Sendable {
        var now: Duration = .zero
        var nextSequence: UInt64 = 0
        var entries: [Entry] = []
    }

    private let state = Locked(State())

    /// Creates a scheduler whose clock reads zero.
    public init() {}

    /// How much time has passed since the scheduler was created: the sum of every ``advance(by:)``.
    public var now: Duration {
        state.withLock { $0.now }
    }

    /// The number of actions scheduled and neither run nor cancelled.
    public var pendingCount: Int {
        state.withLock { state in state.entries.filter { $0.active.isActive }.count }
    }

    /// Schedules `action` at ``now`` + `delay`.
    /// - Parameters:
    ///   - delay: How long to wait; a negative delay counts as zero.
    ///   - action: The work; it runs inside a later ``advance(by:)``.
    /// - Returns: A token that cancels the action if it has not run.
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Subscription {
        let active = ActiveFlag()
        state.withLock { state in
            state.nextSequence += 1
            let due = state.now.saturatingAdding(delay)
            state.entries.append(
                Entry(due: due, sequence: state.nextSequence, active: active, action: action))
        }
        return Subscription { active.deactivate() }
    }

    /// Moves the clock forward by `interval` and runs, on this thread, every action due by then.
    ///
    /// Each action runs with the clock set to its own due time, and no lock held.
    /// - Parameter interval: How far to move; a negative interval counts as zero.
    public func advance(by interval: Duration = .zero) {
        let target = state.withLock { $0.now.saturatingAdding(interval) }
        while let (entry, cancelled) = takeNextEntry(dueBy: target) {
            // Cancelled actions (and the values they captured) are released here, after unlocking.
            withExtendedLifetime(cancelled) {}
            guard let entry else { break }
            if entry.active.isActive {
                entry.active.deactivate()
                entry.action()
            }
        }
        state.withLock { $0.now = max($0.now, target) }
    }

    /// Removes and returns the earliest entry due by `target` (nil when none is due), moving the clock
    /// to its due time, and the cancelled entries it dropped on the way, to release after unlocking.
    private func takeNextEntry(dueBy target: Duration) -> (Entry?, [Entry])? {
        state.withLock { state -> (Entry?, [Entry])? in
            let cancelled = state.entries.filter { !$0.active.isActive }
            if !cancelled.isEmpty { state.entries.removeAll { !$0.active.isActive } }
            guard
                let index = state.entries.indices.min(by: {
                    (state.entries[$0].due, state.entries[$0].sequence)
                        < (state.entries[$1].due, state.entries[$1].sequence)
                }),
                state.entries[index].due <= target
            else { return cancelled.isEmpty ? nil : (nil, cancelled) }
            let entry = state.entries.remove(at: index)
            state.now = max(state.now, entry.due)
            return (entry, cancelled)
        }
    }
}

extension Duration {
    /// The latest time a ``ManualTimerScheduler`` reaches: far past any test, and far below where a
    /// `Duration`'s 128-bit count of attoseconds would overflow.
    static var latestManualTime: Duration { .seconds(Int64.max) * 8 }

    /// This time plus `span` (a negative span counts as zero), never past ``latestManualTime``.
    func saturatingAdding(_ span: Duration) -> Duration {
        let span = min(max(span, .zero), .seconds(Int64.max))
        return self >= Self.latestManualTime - span ? Self.latestManualTime : self + span
    }
}
