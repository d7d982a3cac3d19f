import Binding
import Dispatch
import TestSupport
import Testing

@Suite("Observable: coalescing main-actor delivery")
struct MainActorCoalescingTests {
    /// Sets `values` on another thread while the main actor is held here, then lets the main actor run
    /// until `last` arrives.
    @MainActor
    func deliver(_ values: [Int], to delivery: MainActorDelivery) async -> [Int] {
        let count = Observable(0)
        let received = Recorder<Int>()
        let (arrived, signal) = AsyncStream<Void>.makeStream()
        let last = values.last ?? 0
        let subscription = count.subscribeOnMainActor(delivering: delivery) { value in
            received.append(value)
            if value == last { signal.yield() }
        }
        let setter = DispatchGroup()
        DispatchQueue.global().async(group: setter) {
            for value in values { count.value = value }
        }
        setter.wait()
        var iterator = arrived.makeAsyncIterator()
        _ = await nextElement(of: &iterator)
        subscription.cancel()
        return received.values
    }

    @MainActor
    @Test func latestValueDeliversOnlyTheNewestValueSetBeforeTheMainActorRan() async {
        // Given a coalescing subscriber, When three values are set while the main actor is busy
        let received = await deliver([1, 2, 3], to: .latestValue)
        // Then it gets the current value, then only the newest
        #expect(received == [0, 3])
    }

    @MainActor
    @Test func everyValueStillDeliversEachValueInOrder() async {
        // Given the default delivery, When three values are set while the main actor is busy
        let received = await deliver([1, 2, 3], to: .everyValue)
        // Then
        #expect(received == [0, 1, 2, 3])
    }

    @MainActor
    @Test func aCoalescedValueIsDroppedAfterCancel() async {
        // Given a coalesced value waiting for the main actor
        let count = Observable(0)
        let received = Recorder<Int>()
        let subscription = count.subscribeOnMainActor(delivering: .latestValue) { received.append($0) }
        let (control, signal) = AsyncStream<Int>.makeStream()
        let kept = count.subscribeOnMainActor(delivering: .latestValue) { signal.yield($0) }
        let setter = DispatchGroup()
        DispatchQueue.global().async(group: setter) { count.value = 1 }
        setter.wait()
        // When
        subscription.cancel()
        // Then a subscription left running gets 1, the cancelled one does not
        var iterator = control.makeAsyncIterator()
        #expect(await nextElement(of: &iterator) == 0)
        #expect(await nextElement(of: &iterator) == 1)
        #expect(received.values == [0])
        kept.cancel()
    }
}
