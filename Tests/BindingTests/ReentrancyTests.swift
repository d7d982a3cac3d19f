import Binding
import TestSupport
import Testing

@Suite("Observable: reentrancy")
struct ReentrancyTests {
    @Test func aSubscriberMaySetTheValueAndItIsDeliveredAfterTheCurrentRound() {
        // Given a first subscriber that bumps 1 to 2, and a second that records
        let count = Observable(0)
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        let a = count.subscribe { value in
            first.append(value)
            if value == 1 { count.value = 2 }
        }
        let b = count.subscribe { second.append($0) }
        // When
        count.value = 1
        // Then both saw 1 before 2: the nested set waited for the round
        #expect(first.values == [0, 1, 2])
        #expect(second.values == [0, 1, 2])
        #expect(count.value == 2)
        _ = (a, b)
    }

    @Test func recursiveSetsNeverDeadlockAndArriveInOrder() {
        // Given a subscriber that counts up to 100 by setting the value it receives
        let count = Observable(0)
        let received = Recorder<Int>()
        let subscription = count.subscribe { value in
            received.append(value)
            if value < 100 { count.value = value + 1 }
        }
        // Then
        #expect(received.values == Array(0...100))
        _ = subscription
    }

    @Test func aSubscriberMayCancelItselfDuringDelivery() {
        // Given
        let count = Observable(0)
        let received = Recorder<Int>()
        let holder = SubscriptionHolder()
        holder.subscription = count.subscribe { value in
            received.append(value)
            if value == 1 { holder.subscription?.cancel() }
        }
        // When
        count.value = 1
        count.value = 2
        // Then
        #expect(received.values == [0, 1])
        #expect(count.subscriberCount == 0)
    }

    @Test func aSubscriberMayCancelAnotherBeforeItIsCalled() {
        // Given a first subscriber that cancels the second on value 1
        let count = Observable(0)
        let second = Recorder<Int>()
        let holder = SubscriptionHolder()
        let first = count.subscribe { value in
            if value == 1 { holder.subscription?.cancel() }
        }
        holder.subscription = count.subscribe { second.append($0) }
        // When
        count.value = 1
        // Then the second never sees 1
        #expect(second.values == [0])
        _ = first
    }

    @Test func aSubscriberMaySubscribeAndTheNewcomerGetsTheCurrentValueAfterTheRound() {
        // Given
        let count = Observable(0)
        let inner = Recorder<Int>()
        let bag = SubscriptionBag()
        let outer = count.subscribe { value in
            if value == 1 {
                count.subscribe { inner.append($0) }.store(in: bag)
            }
        }
        // When
        count.value = 1
        count.value = 2
        // Then
        #expect(inner.values == [1, 2])
        _ = outer
    }

    @Test func readingTheValueInsideAHandlerDoesNotDeadlock() {
        // Given
        let count = Observable(0)
        let read = Recorder<Int>()
        let subscription = count.subscribe { _ in read.append(count.value) }
        // When
        count.value = 5
        // Then
        #expect(read.values == [0, 5])
        _ = subscription
    }
}

/// Lets a handler reach its own subscription.
final class SubscriptionHolder: @unchecked Sendable {
    // @unchecked Sendable: written once on the test's thread before any value is set, then only read
    // on that same thread by the synchronous delivery.
    var subscription: Subscription?
}
