import Binding
import TestSupport
import Testing

@Suite("Observable: values and subscriptions")
struct ObservableTests {
    @Test func subscribingDeliversTheCurrentValueAtOnce() {
        // Given
        let title = Observable("Loading")
        let received = Recorder<String>()
        // When
        let subscription = title.subscribe { received.append($0) }
        // Then
        #expect(received.values == ["Loading"])
        _ = subscription
    }

    @Test func everyChangeIsDeliveredInOrder() {
        // Given
        let count = Observable(0)
        let received = Recorder<Int>()
        let subscription = count.subscribe { received.append($0) }
        // When
        count.value = 1
        count.value = 2
        count.value = 3
        // Then
        #expect(received.values == [0, 1, 2, 3])
        _ = subscription
    }

    @Test func everySubscriberReceivesEveryValue() {
        // Given
        let date = Observable("2026-11-20")
        let first = Recorder<String>()
        let second = Recorder<String>()
        let a = date.subscribe { first.append($0) }
        let b = date.subscribe { second.append($0) }
        // When
        date.value = "2026-11-21"
        // Then
        #expect(first.values == ["2026-11-20", "2026-11-21"])
        #expect(second.values == ["2026-11-20", "2026-11-21"])
        _ = (a, b)
    }

    @Test func anOptionalValueDeliversNilLikeAnyOtherValue() {
        // Given
        let error = Observable<String?>("timeout")
        let received = Recorder<String?>()
        let subscription = error.subscribe { received.append($0) }
        // When
        error.value = nil
        // Then
        #expect(received.values == ["timeout", nil])
        _ = subscription
    }

    @Test func settingTheValueIsVisibleToReadersImmediately() {
        // Given
        let name = Observable("a")
        // When
        name.value = "b"
        // Then
        #expect(name.value == "b")
    }

    @Test func cancellingStopsDelivery() {
        // Given
        let count = Observable(0)
        let received = Recorder<Int>()
        let subscription = count.subscribe { received.append($0) }
        // When
        subscription.cancel()
        count.value = 1
        // Then
        #expect(received.values == [0])
        #expect(subscription.isCancelled)
        #expect(count.subscriberCount == 0)
    }

    @Test func cancellingTwiceIsHarmless() {
        // Given
        let count = Observable(0)
        let subscription = count.subscribe { _ in }
        // When
        subscription.cancel()
        subscription.cancel()
        // Then
        #expect(count.subscriberCount == 0)
    }

    @Test func releasingTheTokenStopsDelivery() {
        // Given
        let count = Observable(0)
        let received = Recorder<Int>()
        do {
            let subscription = count.subscribe { received.append($0) }
            _ = subscription
        }
        // When
        count.value = 1
        // Then
        #expect(received.values == [0])
        #expect(count.subscriberCount == 0)
    }

    @Test func aTokenMayOutliveItsObservable() {
        // Given
        var count: Observable<Int>? = Observable(0)
        let subscription = count?.subscribe { _ in }
        // When
        count = nil
        subscription?.cancel()
        // Then
        #expect(subscription?.isCancelled == true)
    }
}

@Suite("Observable: subscription bags")
struct SubscriptionBagTests {
    @Test func aBagKeepsItsSubscriptionsAlive() {
        // Given
        let count = Observable(0)
        let received = Recorder<Int>()
        let bag = SubscriptionBag()
        count.subscribe { received.append($0) }.store(in: bag)
        // When
        count.value = 1
        // Then
        #expect(received.values == [0, 1])
        #expect(bag.count == 1)
    }

    @Test func emptyingABagEndsAllOfItsSubscriptions() {
        // Given
        let count = Observable(0)
        let bag = SubscriptionBag()
        count.subscribe { _ in }.store(in: bag)
        count.subscribe { _ in }.store(in: bag)
        // When
        bag.cancelAll()
        // Then
        #expect(count.subscriberCount == 0)
        #expect(bag.count == 0)
    }

    @Test func releasingABagEndsAllOfItsSubscriptions() {
        // Given
        let count = Observable(0)
        do {
            let bag = SubscriptionBag()
            count.subscribe { _ in }.store(in: bag)
            #expect(count.subscriberCount == 1)
        }
        // Then
        #expect(count.subscriberCount == 0)
    }

    @Test func aSetOfSubscriptionsWorksLikeCombinesStoreIn() {
        // Given
        let count = Observable(0)
        var subscriptions = Set<Subscription>()
        // When
        count.subscribe { _ in }.store(in: &subscriptions)
        // Then
        #expect(subscriptions.count == 1)
        #expect(count.subscriberCount == 1)
        subscriptions.removeAll()
        #expect(count.subscriberCount == 0)
    }

    @Test func aCustomSubscriptionRunsItsCancelWorkOnce() {
        // Given
        let calls = Recorder<Int>()
        let subscription = Subscription { calls.append(1) }
        // When
        subscription.cancel()
        subscription.cancel()
        // Then
        #expect(calls.values == [1])
    }
}
