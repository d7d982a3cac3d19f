import Binding
import TestSupport
import Testing

@Suite("ManualTimerScheduler")
struct ManualTimerSchedulerTests {
    @Test func actionsRunOnlyWhenTimeIsAdvancedPastThem() {
        // Given
        let scheduler = ManualTimerScheduler()
        let ran = Recorder<String>()
        let token = scheduler.schedule(after: .seconds(1)) { ran.append("one second") }
        // When
        scheduler.advance(by: .milliseconds(999))
        let before = ran.values
        scheduler.advance(by: .milliseconds(1))
        // Then
        #expect(before == [])
        #expect(ran.values == ["one second"])
        #expect(scheduler.now == .seconds(1))
        _ = token
    }

    @Test func actionsRunInDueOrderThenInScheduleOrder() {
        // Given
        let scheduler = ManualTimerScheduler()
        let ran = Recorder<String>()
        let tokens = [
            scheduler.schedule(after: .seconds(2)) { ran.append("late") },
            scheduler.schedule(after: .seconds(1)) { ran.append("early 1") },
            scheduler.schedule(after: .seconds(1)) { ran.append("early 2") },
        ]
        // When
        scheduler.advance(by: .seconds(5))
        // Then
        #expect(ran.values == ["early 1", "early 2", "late"])
        _ = tokens
    }

    @Test func aCancelledOrReleasedActionNeverRuns() {
        // Given
        let scheduler = ManualTimerScheduler()
        let ran = Recorder<String>()
        let cancelled = scheduler.schedule(after: .seconds(1)) { ran.append("cancelled") }
        _ = scheduler.schedule(after: .seconds(1)) { ran.append("released") }
        // When
        cancelled.cancel()
        scheduler.advance(by: .seconds(1))
        // Then
        #expect(ran.values == [])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func anActionScheduledByAnActionRunsInTheSameAdvanceWhenDue() {
        // Given
        let scheduler = ManualTimerScheduler()
        let ran = Recorder<Duration>()
        let inner = Recorder<Subscription>()
        let outer = scheduler.schedule(after: .seconds(1)) {
            ran.append(scheduler.now)
            inner.append(scheduler.schedule(after: .seconds(1)) { ran.append(scheduler.now) })
        }
        // When
        scheduler.advance(by: .seconds(3))
        // Then each ran with the clock at its own due time
        #expect(ran.values == [.seconds(1), .seconds(2)])
        #expect(scheduler.now == .seconds(3))
        _ = outer
    }

    /// A captured value whose deinit reads the scheduler.
    final class ReadsTheClockWhenReleased: Sendable {
        let scheduler: ManualTimerScheduler
        init(_ scheduler: ManualTimerScheduler) { self.scheduler = scheduler }
        deinit { _ = scheduler.now }
    }

    @Test func aCancelledActionIsReleasedOutsideTheSchedulersLock() {
        // Given a cancelled action holding the last reference to a value whose deinit uses the scheduler
        let scheduler = ManualTimerScheduler()
        var probe: ReadsTheClockWhenReleased? = ReadsTheClockWhenReleased(scheduler)
        let token = scheduler.schedule(after: .seconds(1)) { [probe] in _ = probe }
        probe = nil
        token.cancel()
        // When time moves on, dropping the cancelled action
        let finished = Watchdog.finishes { scheduler.advance(by: .seconds(2)) }
        // Then
        #expect(finished, "advance deadlocked releasing a cancelled action")
    }
}
