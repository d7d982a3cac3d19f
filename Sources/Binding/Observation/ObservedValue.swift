#if canImport(Combine)
    import Combine
#elseif BINDING_STAND_IN
    // Examples/AppCheck compiles this file outside Binding, against OpenCombine, on Linux.
    import Binding
    import OpenCombine
#endif

#if canImport(Combine) || BINDING_STAND_IN

    /// An ``Observable``'s value as a Combine `ObservableObject`: how a SwiftUI view follows an
    /// observable on iOS 16 and macOS 13, which lack the Observation framework that ``TrackedValue``
    /// needs.
    ///
    /// A change of the source publishes `objectWillChange` and updates ``value`` on the main actor: at
    /// once when set there, after a hop to the main queue otherwise, coalesced (the view gets the newest
    /// value). It keeps its source alive.
    ///
    /// ```swift
    /// struct TitleView: View {
    ///     @StateObject private var title: ObservedValue<String>
    ///     init(viewModel: MovieViewModel) { _title = StateObject(wrappedValue: ObservedValue(viewModel.title)) }
    ///     var body: some View { Text(title.value) }
    /// }
    /// ```
    @MainActor
    public final class ObservedValue<Value: Sendable>: ObservableObject {
        /// The source's value, as last delivered on the main actor.
        @Published public private(set) var value: Value
        /// The subscription to the source; like every token, it keeps the source alive.
        private var subscription: Binding.Subscription?  // Combine declares a `Subscription` too

        /// Creates an observable object following `source`.
        /// - Parameter source: The observable to follow; retained.
        public init(_ source: Observable<Value>) {
            value = source.value
            subscription = source.subscribeOnMainActor(with: self, delivering: .latestValue) {
                object, value in
                object.value = value
            }
        }
    }
#endif
