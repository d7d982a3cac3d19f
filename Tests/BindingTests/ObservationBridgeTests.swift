#if canImport(Observation)
    import Observation
    import TestSupport
    import Testing

    import class Binding.Observable
    import class Binding.TrackedValue

    /// The documented pattern: an `@Observable` view model holding a Binding observable.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
    @MainActor
    @Observable
    final class SearchModel {
        @ObservationIgnored let results = Observable<[String]>([])
        @ObservationIgnored private(set) lazy var trackedResults = results.tracked()
    }

    @Suite("Observable: the bridge to Observation")
    struct ObservationBridgeTests {
        @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
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

        @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
        @MainActor
        @Test func anObservationObservableViewModelExposesATrackedValueInOneLine() {
            // Given an @Observable view model in a file that imports both Observable types
            let model = SearchModel()
            let changes = Recorder<String>()
            withObservationTracking {
                _ = model.trackedResults.value
            } onChange: {
                changes.append("changed")
            }
            // When
            model.results.value = ["Harbin"]
            // Then
            #expect(changes.values == ["changed"])
            #expect(model.trackedResults.value == ["Harbin"])
        }

        @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
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

        @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
        @MainActor
        @Test func releasingATrackedValueReleasesTheChainItKept() {
            // Given a tracked view that is the only holder of a map
            let count = Observable(1)
            var tracked: TrackedValue<String>? = count.map { "\($0)" }.tracked()
            #expect(count.subscriberCount == 1)
            // When
            tracked = nil
            // Then the map is gone, and with it its subscription to the source
            #expect(tracked == nil)
            #expect(count.subscriberCount == 0)
        }

        @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
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
            // Then
            #expect(await nextElement(of: &iterator) != nil)
            #expect(await eventually { tracked.value == 5 })
        }
    }
#endif
