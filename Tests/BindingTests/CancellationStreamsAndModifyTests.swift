import Binding
import Dispatch
import Foundation
import TestSupport
import Testing

/// Promises the docs make that the first version broke: cancellation, streams of derived observables,
/// and an atomic read-modify-write.
@Suite("Observable: cancellation, streams and modify")
struct CancellationStreamsAndModifyTests {
    @Test func aQueuedValueIsNotDeliveredAfterCancelReturns() {
        // Given a queue subscription whose queue is blocked, so a value waits in it
        let queue = DispatchQueue(label: "binding.tests.cancel")
        let received = Recorder<Int>()
        let observable = Observable(0)
        let subscription = observable.subscribe(on: queue) { received.append($0) }
        let blocker = DispatchSemaphore(value: 0)
        queue.async { blocker.wait() }
        observable.value = 1
        // When the subscription is cancelled before the queue runs the delivery
        subscription.cancel()
        blocker.signal()
        queue.sync {}
        // Then only the value delivered before the queue was blocked arrived
        #expect(!received.values.contains(1))
    }

    @Test func aValueQueuedForTheMainActorIsNotDeliveredAfterCancelReturns() async {
        // Given a main-actor subscription
        let received = Recorder<Int>()
        let observable = Observable(0)
        let subscription = await MainActor.run { observable.subscribeOnMainActor { received.append($0) } }
        // When another thread sets a value and cancels while the main actor is busy, so the value waits
        // in the main queue until after cancel() has returned
        await MainActor.run {
            let done = DispatchSemaphore(value: 0)
            Thread {
                observable.value = 1
                subscription.cancel()
                done.signal()
            }.start()
            done.wait()
        }
        await MainActor.run {}
        // Then
        #expect(received.values == [0])
    }

    @Test func theValuesOfADerivedObservableKeepComingWhileIterated() async throws {
        // Given a stream of a map nobody else holds
        let source = Observable(1)
        let received = Recorder<Int>()
        // When two values are read from it (the first version stopped after one: the map was freed)
        let finished = await Watchdog.finishes {
            var iterator = source.map { $0 * 10 }.values.makeAsyncIterator()
            if let first = await iterator.next() { received.append(first) }
            source.value = 2
            if let second = await iterator.next() { received.append(second) }
        }
        // Then
        try #require(finished, "the stream stopped after its first value")
        #expect(received.values == [10, 20])
    }

    @Test func modifyIsAnAtomicReadModifyWrite() async {
        // Given a counter incremented from many tasks at once
        let counter = Observable(0)
        // When
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<500 { counter.modify { $0 += 1 } } }
            }
        }
        // Then no increment was lost
        #expect(counter.value == 4_000)
    }

    @Test func modifyDeliversTheNewValueAndReturnsTheBodysResult() {
        // Given
        let names = Observable(["a"])
        let received = Recorder<[String]>()
        let subscription = names.subscribe { received.append($0) }
        // When
        let count = names.modify { value -> Int in
            value.append("b")
            return value.count
        }
        // Then
        #expect(count == 2)
        #expect(received.values == [["a"], ["a", "b"]])
        _ = subscription
    }
}
