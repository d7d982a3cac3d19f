import Binding
import Testing

@Suite("Observable: async sequence")
struct AsyncValuesTests {
    @Test func valuesYieldsTheCurrentValueThenEachChange() async {
        // Given
        let count = Observable(0)
        var iterator = count.values.makeAsyncIterator()
        // When
        count.value = 1
        count.value = 2
        // Then
        #expect(await iterator.next() == 0)
        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == 2)
    }

    @Test func cancellingTheIteratingTaskFinishesTheSequenceAndUnsubscribes() async {
        // Given a task iterating until the sequence finishes
        let count = Observable(0)
        let firstValue = AsyncStream<Void>.makeStream()
        let task = Task {
            var seen = 0
            for await _ in count.values {
                seen += 1
                firstValue.continuation.yield()
            }
            return seen
        }
        var signals = firstValue.stream.makeAsyncIterator()
        _ = await signals.next()
        // When
        task.cancel()
        let seen = await task.value
        // Then
        #expect(seen == 1)
        #expect(count.subscriberCount == 0)
    }
}
