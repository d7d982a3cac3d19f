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

    @Test func aLateAnswerForAnOldQueryIsNeverPublished() async {
        // Given a search in flight for "a"
        let search = ControlledSearch()
        let query = Observable("a")
        let results = query.mapLatest(initial: [String]()) { await search.search($0) }
        await search.gate(for: "a").waitUntilEntered()
        // When the user types "ab", and "ab" answers before "a"
        query.value = "ab"
        await search.gate(for: "ab").waitUntilEntered()
        search.gate(for: "ab").open()
        await until { results.value == ["result for ab"] }
        search.gate(for: "a").open()
        await until { search.cancelled.values == ["a"] }
        // Then the old answer did not overwrite the new one
        #expect(results.value == ["result for ab"])
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
        await until { search.cancelled.values == ["a"] }
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
        await until { results.value == ["result for x"] }
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
        await until { search.cancelled.values == ["a"] }
        #expect(search.cancelled.values == ["a"])
        #expect(results == nil)
    }

    /// Yields until `condition` holds, for at most about five seconds.
    func until(_ condition: () -> Bool) async {
        for _ in 0..<50_000 where !condition() {
            await Task.yield()
            try? await Task.sleep(for: .microseconds(100))
        }
    }
}
