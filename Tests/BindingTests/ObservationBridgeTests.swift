#if canImport(Observation)
    import Observation
    import TestSupport
    import Testing

    import class Binding.Observable

    @Suite("Observable: the bridge to Observation")
    struct ObservationBridgeTests {
        @MainActor
        @Test func readingATrackedValueInsideObservationTrackingFiresOnTheNextChange() {
            // Given a tracked value read inside withObservationTracking
            let title = Observable("Box office")
            let tracked = title.tracked()
            let changes = Recorder<String>()
            let seen = withObservationTracking {
                tracked.value
            } onChange: {
                changes.append("changed")
            }
            // When the source changes on the main actor
            title.value = "Search"
            // Then tracking fired once, and the tracked value is the new one
            #expect(seen == "Box office")
            #expect(changes.values == ["changed"])
            #expect(tracked.value == "Search")
        }

        @MainActor
        @Test func aTrackedValueKeepsAnUnheldChainAlive() {
            // Given a tracked view of a map nothing else holds
            let count = Observable(1)
            let tracked = count.map { "\($0) movies" }.tracked()
            // When
            count.value = 2
            // Then
            #expect(tracked.value == "2 movies")
        }

        @MainActor
        @Test func aChangeSetOffTheMainActorReachesTheTrackedValueOnTheMainActor() async {
            // Given
            let count = Observable(0)
            let tracked = count.tracked()
            let (fired, signal) = AsyncStream<Void>.makeStream()
            withObservationTracking {
                _ = tracked.value
            } onChange: {
                signal.yield()
            }
            // When another thread sets the source
            Task.detached { count.value = 5 }
            var iterator = fired.makeAsyncIterator()
            _ = await iterator.next()
            for _ in 0..<100 where tracked.value != 5 { await Task.yield() }
            // Then
            #expect(tracked.value == 5)
        }
    }
#endif
