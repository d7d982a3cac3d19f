import Binding
import Foundation
import TestSupport
import Testing

/// Every public Binding API that takes a `Duration`, at the extremes: no value traps (`.seconds(Int64.max)`
/// is the usual way to say "no limit"), and each reads as documented.
@Suite("Binding: durations at the extremes")
struct ExtremeDurationTests {
    static let durations: [Duration] = [
        .zero, .seconds(-5), .seconds(Int64.max), .seconds(Int64.max) + .seconds(1),
        .seconds(Int64.min) - .seconds(1), .seconds(Int64.min) * 2,
    ]

    @Test(arguments: durations)
    func aWaitWithAnyLimitEndsAsItsLimitSays(_ limit: Duration) async throws {
        // Given a wait for 1 with `limit`, the current value 0
        let count = Observable(0)
        let waiter = Task { try await count.value(where: { $0 == 1 }, within: limit) }
        // When 1 is set, for a positive limit
        if limit > .zero {
            await waitWhile { count.subscriberCount == 0 }
            count.value = 1
        }
        // Then a positive limit answers with it, and a limit of zero or less runs out at once
        let answer = await waiter.result
        if limit > .zero {
            #expect(try answer.get() == 1)
        } else {
            #expect(throws: ValueWaitTimeout.self) { try answer.get() }
        }
    }

    @Test(arguments: durations)
    func aManualSchedulerTakesAnyDelayAndAnyAdvance(_ delay: Duration) {
        // Given an action scheduled after `delay`
        let scheduler = ManualTimerScheduler()
        let ran = Recorder<Bool>()
        let subscription = scheduler.schedule(after: delay) { ran.append(true) }
        // When the clock advances a second, then by the same extreme
        scheduler.advance(by: .seconds(1))
        let early = !ran.values.isEmpty
        scheduler.advance(by: delay)
        scheduler.advance(by: .seconds(Int64.max))
        // Then it ran at once for a delay of a second or less, and at last for any delay
        #expect(early == (delay <= .seconds(1)))
        #expect(!ran.values.isEmpty)
        subscription.cancel()
    }

    @Test(arguments: durations)
    func aDispatchSchedulerTakesAnyDelay(_ delay: Duration) async {
        // Given an action scheduled on Dispatch after `delay`
        let ran = Recorder<Bool>()
        let subscription = DispatchTimerScheduler.dispatch.schedule(after: delay) { ran.append(true) }
        // When a delay of zero or less has had time to pass
        if delay <= .zero { #expect(await eventually { !ran.values.isEmpty }) }
        // Then nothing trapped; a long one has not run
        if delay > .seconds(1) { #expect(ran.values.isEmpty) }
        subscription.cancel()
    }

    @Test(arguments: durations)
    func timingOperatorsTakeAnyInterval(_ interval: Duration) {
        // Given debounce, throttle and delay with `interval`, on a manual clock
        let scheduler = ManualTimerScheduler()
        let source = Observable(0)
        let debounced = source.debounce(for: interval, scheduler: scheduler)
        let throttled = source.throttle(for: interval, latest: true, scheduler: scheduler)
        let delayed = source.delay(for: interval, scheduler: scheduler)
        // When values come and the clock runs as far as it goes
        source.value = 1
        source.value = 2
        scheduler.advance(by: .seconds(Int64.max))
        // Then nothing trapped, and each shows the last value
        #expect(debounced.value == 2)
        #expect(throttled.value == 2)
        #expect(delayed.value == 2)
    }
}
