#if canImport(Observation)
    import Observation

    /// An ``Observable``'s value exposed to Apple's Observation framework, so SwiftUI views and
    /// `withObservationTracking` see its changes.
    ///
    /// Reading ``value`` inside a SwiftUI view's `body` (or a `withObservationTracking` block) registers the
    /// read, and a change of the source invalidates it when it reaches this value, as for a property of an
    /// `@Observable` class. A change set on the main actor arrives before its setter returns; one set
    /// elsewhere arrives after a hop to the main queue, coalesced: the view gets the newest value, not every
    /// step to it.
    /// It keeps its source alive, so `viewModel.count.map(format).tracked()` works on its own.
    ///
    /// ```swift
    /// @MainActor @Observable final class SearchViewModel {
    ///     @ObservationIgnored let results = Observable<[Movie]>([])
    ///     @ObservationIgnored lazy var trackedResults = results.tracked()      // the one line
    /// }
    ///
    /// struct ResultsView: View {
    ///     let model: SearchViewModel
    ///     var body: some View { List(model.trackedResults.value) { Text($0.title) } }
    /// }
    /// ```
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
    @MainActor
    public final class TrackedValue<Value: Sendable>: Observation.Observable {
        private let registrar = ObservationRegistrar()
        private var storedValue: Value
        /// The subscription to the source; like every token, it keeps the source alive.
        private var subscription: Subscription?

        /// The source's value, as last delivered on the main actor; reading it is tracked by Observation.
        public var value: Value {
            registrar.access(self, keyPath: \.value)
            return storedValue
        }

        /// Creates a tracked view of `source`.
        /// - Parameter source: The observable to follow; retained.
        public init(_ source: Observable<Value>) {
            storedValue = source.value
            subscription = source.subscribeOnMainActor(with: self, delivering: .latestValue) {
                tracked, value in
                tracked.registrar.withMutation(of: tracked, keyPath: \.value) {
                    tracked.storedValue = value
                }
            }
        }
    }

    extension Observable where Value: Sendable {
        /// This observable's value exposed to Observation's tracking: see ``TrackedValue``.
        /// - Returns: A new tracked view that keeps this observable alive; keep it as long as views read it.
        @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
        @MainActor
        public func tracked() -> TrackedValue<Value> {
            TrackedValue(self)
        }
    }
#endif
