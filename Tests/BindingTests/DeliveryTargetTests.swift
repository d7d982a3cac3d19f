import Binding
import Dispatch
import TestSupport
import Testing

@Suite("Observable: delivery targets")
struct DeliveryTargetTests {
    @Test func aQueueSubscriberReceivesValuesOnThatQueueInOrder() async {
        // Given
        let queue = DispatchQueue(label: "binding.tests.delivery")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let count = Observable(0)
        let received = Recorder<String>()
        let (done, finish) = AsyncStream<Void>.makeStream()
        let subscription = count.subscribe(on: queue) { value in
            received.append("\(value):\(DispatchQueue.getSpecific(key: key) == true)")
            if value == 3 { finish.yield() }
        }
        // When
        for value in 1...3 { count.value = value }
        var iterator = done.makeAsyncIterator()
        _ = await iterator.next()
        // Then
        #expect(received.values == ["0:true", "1:true", "2:true", "3:true"])
        _ = subscription
    }

    @MainActor
    @Test func aMainActorSubscriberOnTheMainThreadReceivesTheCurrentValueBeforeSubscribeReturns() {
        // Given
        let title = Observable("Box office")
        let received = Recorder<String>()
        // When
        let subscription = title.subscribeOnMainActor { received.append($0) }
        // Then
        #expect(received.values == ["Box office"])
        _ = subscription
    }

    @MainActor
    @Test func valuesSetOffTheMainThreadReachAMainActorSubscriberInOrder() async {
        // Given
        let count = Observable(0)
        let received = Recorder<Int>()
        let (done, finish) = AsyncStream<Void>.makeStream()
        let subscription = count.subscribeOnMainActor { value in
            MainActor.assertIsolated()
            received.append(value)
            if value == 50 { finish.yield() }
        }
        // When
        await Task.detached {
            for value in 1...50 { count.value = value }
        }.value
        var iterator = done.makeAsyncIterator()
        _ = await iterator.next()
        // Then
        #expect(received.values == Array(0...50))
        _ = subscription
    }

    @MainActor
    @Test func aMainActorOwnerBoundSubscriptionEndsWithItsOwner() {
        // Given
        let title = Observable("A")
        let received = Recorder<String>()
        var owner: Owner? = Owner(name: "screen")
        var token: Subscription?
        if let owner {
            token = title.subscribeOnMainActor(with: owner) { owner, value in
                received.append("\(owner.name):\(value)")
            }
        }
        // When the owner goes while the token is still held
        owner = nil
        title.value = "B"
        // Then
        #expect(received.values == ["screen:A"])
        #expect(title.subscriberCount == 0)
        _ = (owner, token)
    }
}
