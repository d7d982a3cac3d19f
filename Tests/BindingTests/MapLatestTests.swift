import Binding
import Foundation
import TestSupport
import Testing

@Suite("Observable: mapLatest")
struct MapLatestTests {
    /// A search whose answers the test releases one query at a time, in any order.
    final class ControlledSearch: @unchecked Sendable {
        // @unchecked Sendable: `gates` is only touched while holding `lock`.
        private let lock = NSLock()
        private var gates: [String: AsyncGate] = [:]
        let started = Recorder<String>()
        let cancelled = Recorder<String>()

        func gate(for query: String) -> AsyncGate {
            lock.lock()
            defer { lock.unlock() }
            if let gate = gates[query] { return gate }
            let gate = AsyncGate()
            gates[query] = gate
            return gate
        }

        func search(_ query: String) async -> [String] {
            started.append(query)
            await gate(for: query).enter()
            if Task.isCancelled { cancelled.append(query) }
            return ["result for \(query)"]
        }
    }

    /// An answer that records when it is released: a result that was dropped is released once its
    /// task ends, while a published one stays held by the observable.
    final class Answer: Sendable {
        let query: String
        let released: Recorder<String>

        init(_ query: String, released: Recorder<String>) {
            self.query = query
            self.released = released
        }

        deinit { released.append(query) }
    }

    @Test func aLateAnswerForAnOldQueryIsNeverPublished() async throws {
        // Given a search for "a" in flight that ignores cancellation and answers whenever it is let go
        let search = ControlledSearch()
        let released = Recorder<String>()
        let query = Observable("a")
        let results = query.mapLatest(initial: Answer("initial", released: released)) { query in
            _ = await search.search(query)
            return Answer(query, released: released)
        }
        await search.gate(for: "a").waitUntilEntered()
        // When the user types "ab", "ab" answers first, then "a"
        query.value = "ab"
        await search.gate(for: "ab").waitUntilEntered()
        search.gate(for: "ab").open()
        try #require(await eventually { results.value.query == "ab" })
        search.gate(for: "a").open()
        // Then the answer for "a" is dropped (released when its task ends), never published
        try #require(await eventually { released.values.contains("a") }, "the answer for a was kept")
        #expect(results.value.query == "ab")
    }

    @Test func eachNewValueCancelsTheTaskForThePreviousOne() async {
        // Given
        let search = ControlledSearch()
        let query = Observable("a")
        let results = query.mapLatest(initial: [String]()) { await search.search($0) }
        await search.gate(for: "a").waitUntilEntered()
        // When
        query.value = "b"
        search.gate(for: "a").open()
        // Then the task for "a" sees that it was cancelled
        await eventually { search.cancelled.values == ["a"] }
        #expect(search.cancelled.values == ["a"])
        #expect(results.value == [])
    }

    @Test func itStartsWithTheInitialValueThenTheResultForTheCurrentValue() async {
        // Given
        let search = ControlledSearch()
        let query = Observable("x")
        // When
        let results = query.mapLatest(initial: ["initial"]) { await search.search($0) }
        let before = results.value
        search.gate(for: "x").open()
        await eventually { results.value == ["result for x"] }
        // Then
        #expect(before == ["initial"])
        #expect(results.value == ["result for x"])
    }

    @Test func releasingTheDerivedObservableCancelsTheRunningTask() async {
        // Given
        let search = ControlledSearch()
        let query = Observable("a")
        var results: Observable<[String]>? = query.mapLatest(initial: []) { await search.search($0) }
        await search.gate(for: "a").waitUntilEntered()
        // When
        results = nil
        search.gate(for: "a").open()
        // Then
        await eventually { search.cancelled.values == ["a"] }
        #expect(search.cancelled.values == ["a"])
        #expect(results == nil)
    }
}
