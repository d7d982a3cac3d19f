import Binding
import TestSupport
import Testing

/// Every operation that lets go of a user's object does so after unlocking, so that object's `deinit`
/// may call back into the same observable. Each test would hang without that rule; the watchdog turns a
/// hang into a failure.
@Suite("Observable: a deinit may call back into the observable")
struct DeinitReentrancyTests {
    @Test func cancellingASubscriptionWhoseCaptureCancelsAnotherOfTheSameObservableReturns() throws {
        // Given a screen that keeps one subscription in its bag, and a second subscription that is the
        // last holder of the screen
        let observable = Observable(0)
        var screen: Screen? = Screen()
        observable.subscribe { _ in }.store(in: screen!.bag)
        let token = observable.subscribe { [screen] _ in _ = screen }
        screen = nil
        // When the second subscription is cancelled: the screen's deinit cancels its bag, which removes
        // a subscriber from the same observable
        let finished = Watchdog.finishes { token.cancel() }
        // Then
        try #require(finished, "the operation deadlocked")
        #expect(observable.subscriberCount == 0)
    }

    @Test func replacingAValueWhoseDeinitReadsTheObservableReturns() throws {
        // Given an observable holding the only reference to an object whose deinit reads the observable
        let observable = Observable<Probe?>(nil)
        let reader = Recorder<Int>()
        observable.value = Probe {
            _ = observable.value
            reader.append(1)
        }
        // When the value is replaced
        let finished = Watchdog.finishes { observable.value = nil }
        // Then the old value was released, and its deinit ran to the end
        try #require(finished, "the operation deadlocked")
        #expect(reader.values == [1])
    }

    @Test func aSubscriptionEndedByItsOwnersDeathMayReleaseObjectsThatSubscribe() throws {
        // Given an owner-bound subscription whose handler holds the last reference to an object that
        // subscribes to the same observable when released
        let observable = Observable(0)
        let later = Recorder<Subscription>()
        var owner: Owner? = Owner()
        let probe = Probe { later.append(observable.subscribe { _ in }) }
        let token = observable.subscribe(with: owner!) { [probe] _, _ in _ = probe }
        _ = consume probe
        owner = nil
        // When a value arrives, the handler finds its owner gone and the subscription ends
        let finished = Watchdog.finishes { observable.value = 1 }
        // Then
        try #require(finished, "the operation deadlocked")
        #expect(later.values.count == 1)
        _ = token
    }

    @Test func releasingADerivedObservableMayReleaseATransformThatCancelsSourceSubscriptions() throws {
        // Given a source with one subscription in a bag, and a map whose transform holds the last
        // reference to an object that empties that bag when released
        let source = Observable(1)
        let bag = SubscriptionBag()
        source.subscribe { _ in }.store(in: bag)
        // When the derived observable is made and released: its subscription to the source ends, and
        // the transform it held is released with it
        let finished = Watchdog.finishes {
            let probe = Probe { bag.cancelAll() }
            var doubled: Observable<Int>? = source.map { [probe] value in
                _ = probe
                return value * 2
            }
            _ = consume probe
            #expect(doubled?.value == 2)
            doubled = nil
        }
        // Then both subscriptions to the source are gone
        try #require(finished, "the operation deadlocked")
        #expect(source.subscriberCount == 0)
    }
}

/// A view or view model that owns subscriptions; its bag cancels them when it is released.
private final class Screen: Sendable {
    let bag = SubscriptionBag()
}

/// Runs `onDeinit` when released.
private final class Probe: Sendable {
    let onDeinit: @Sendable () -> Void
    init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}
