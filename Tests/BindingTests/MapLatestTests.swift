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

    // MARK: - A loading indicator (Docs/Binding.md)

    /// An answer tagged with the query it answers, as the guide's recipe has it.
    struct TaggedAnswer: Sendable, Equatable {
        let query: String
        let results: [String]
    }

    @Test func aLoadingFlagDerivedFromTheAnswersQueryStaysOnWhileTheNewerSearchRuns() async throws {
        // Given the guide's recipe over a search for "a" in flight
        let search = ControlledSearch()
        let query = Observable("a")
        let answers = query.mapLatest(initial: TaggedAnswer(query: "", results: [])) { query in
            TaggedAnswer(query: query, results: await search.search(query))
        }
        let isLoading = query.combineLatest(answers).map { query, answer in answer.query != query }
        await search.gate(for: "a").waitUntilEntered()
        #expect(isLoading.value)
        // When "ab" is typed, and the cancelled search for "a" finishes while "ab" runs
        query.value = "ab"
        await search.gate(for: "ab").waitUntilEntered()
        search.gate(for: "a").open()
        try #require(await eventually { search.cancelled.values == ["a"] })
        // Then the flag is still on: the cancelled search's answer never arrived to clear it
        #expect(isLoading.value)
        // And when the search for "ab" answers, the flag goes off with its answer shown
        search.gate(for: "ab").open()
        try #require(await eventually { !isLoading.value }, "the flag never went off")
        #expect(answers.value == TaggedAnswer(query: "ab", results: ["result for ab"]))
    }

    @Test func aFlagClearedByTheClosuresDeferIsClearedByACancelledSearchTooWhichIsWhyTheGuideDerivesIt()
        async throws
    {
        // Given the recipe the guide warns against: a flag set in the closure and cleared by its defer
        let search = ControlledSearch()
        let query = Observable("a")
        let isLoading = Observable(false)
        let results = query.mapLatest(initial: [String]()) { query in
            isLoading.value = true
            defer { isLoading.value = false }
            return await search.search(query)
        }
        await search.gate(for: "a").waitUntilEntered()
        query.value = "ab"
        await search.gate(for: "ab").waitUntilEntered()
        // When the cancelled search for "a" finishes while "ab" still runs
        search.gate(for: "a").open()
        try #require(await eventually { search.cancelled.values == ["a"] })
        try #require(await eventually { !isLoading.value })
        // Then the flag says nothing is loading while "ab" is: the defect the guide's recipe avoids
        #expect(results.value.isEmpty)
        search.gate(for: "ab").open()
    }
}
