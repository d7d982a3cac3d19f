import Binding
import TestSupport
import Testing

@Suite("Observable: debounce, throttle, delay on an injected scheduler")
struct TimingOperatorTests {
    @Test func debouncePublishesOnlyTheLastValueOfABurstOnceTheSourceIsQuiet() {
        // Given a search field debounced by 250 ms
        let scheduler = ManualTimerScheduler()
        let query = Observable("")
        let settled = query.debounce(for: .milliseconds(250), scheduler: scheduler)
        let received = Recorder<String>()
        let subscription = settled.subscribe { received.append($0) }
        // When the user types three letters 100 ms apart
        for text in ["a", "av", "ava"] {
            query.value = text
            scheduler.advance(by: .milliseconds(100))
        }
        let beforeQuiet = received.values
        scheduler.advance(by: .milliseconds(150))
        // Then only the final query is published, 250 ms after the last key
        #expect(beforeQuiet == [""])
        #expect(received.values == ["", "ava"])
        #expect(scheduler.pendingCount == 0)
        _ = subscription
    }

    @Test func releasingADebouncedObservableCancelsItsWait() {
        // Given a wait in progress
        let scheduler = ManualTimerScheduler()
        let query = Observable("")
        var settled: Observable<String>? = query.debounce(for: .seconds(1), scheduler: scheduler)
        query.value = "a"
        #expect(scheduler.pendingCount == 1)
        // When
        settled = nil
        // Then
        #expect(scheduler.pendingCount == 0)
        #expect(settled == nil)
    }

    @Test func throttleWithLatestPublishesAtOnceThenTheNewestOfEachWindow() {
        // Given
        let scheduler = ManualTimerScheduler()
        let progress = Observable(0)
        let throttled = progress.throttle(for: .seconds(1), latest: true, scheduler: scheduler)
        let received = Recorder<Int>()
        let subscription = throttled.subscribe { received.append($0) }
        // When
        progress.value = 1  // opens a window, published at once
        progress.value = 2
        progress.value = 3
        scheduler.advance(by: .seconds(1))  // the window closes with 3 held
        scheduler.advance(by: .seconds(1))  // the next window closes empty
        progress.value = 4  // no window: at once
        // Then
        #expect(received.values == [0, 1, 3, 4])
        _ = subscription
    }

    @Test func throttleWithoutLatestPublishesTheFirstChangeOfEachWindow() {
        // Given
        let scheduler = ManualTimerScheduler()
        let progress = Observable(0)
        let throttled = progress.throttle(for: .seconds(1), latest: false, scheduler: scheduler)
        let received = Recorder<Int>()
        let subscription = throttled.subscribe { received.append($0) }
        // When
        progress.value = 1
        progress.value = 2
        progress.value = 3
        scheduler.advance(by: .seconds(1))
        // Then
        #expect(received.values == [0, 1, 2])
        _ = subscription
    }

    @Test func delayPublishesEveryChangeInOrderAfterTheInterval() {
        // Given
        let scheduler = ManualTimerScheduler()
        let count = Observable(0)
        let delayed = count.delay(for: .milliseconds(500), scheduler: scheduler)
        let received = Recorder<Int>()
        let subscription = delayed.subscribe { received.append($0) }
        // When
        count.value = 1
        scheduler.advance(by: .milliseconds(200))
        count.value = 2
        scheduler.advance(by: .milliseconds(300))
        let atFirstDeadline = received.values
        scheduler.advance(by: .milliseconds(200))
        // Then
        #expect(atFirstDeadline == [0, 1])
        #expect(received.values == [0, 1, 2])
        #expect(scheduler.pendingCount == 0)
        _ = subscription
    }

    @Test func debounceOnTheDispatchSchedulerPublishesTheLastValueAfterRealTime() async {
        // Given the default scheduler
        let query = Observable("")
        let settled = query.debounce(for: .milliseconds(50))
        // When
        query.value = "a"
        query.value = "ab"
        // Then the last value arrives, later, on its own
        #expect(settled.value == "")
        #expect(await eventually { settled.value == "ab" })
    }

    @Test func releasingAThrottledObservableCancelsItsWindow() {
        // Given an open window
        let scheduler = ManualTimerScheduler()
        let progress = Observable(0)
        var throttled: Observable<Int>? = progress.throttle(
            for: .seconds(1), latest: true, scheduler: scheduler)
        progress.value = 1
        #expect(scheduler.pendingCount == 1)
        // When
        throttled = nil
        // Then
        #expect(scheduler.pendingCount == 0)
        #expect(throttled == nil)
    }

    @Test func releasingADelayedObservableCancelsItsWaits() {
        // Given two changes waiting
        let scheduler = ManualTimerScheduler()
        let count = Observable(0)
        var delayed: Observable<Int>? = count.delay(for: .seconds(1), scheduler: scheduler)
        count.value = 1
        count.value = 2
        #expect(scheduler.pendingCount == 2)
        // When
        delayed = nil
        // Then
        #expect(scheduler.pendingCount == 0)
        #expect(delayed == nil)
    }
}
