extension Observable where Value: Sendable {
    /// A new observable holding the values of this one that pass `isIncluded`.
    ///
    /// It starts with the current value when that passes, or with `initial` when it does not; afterwards
    /// a change that fails the test is skipped.
    /// ```swift
    /// let query = text.filter(initial: "") { $0.count >= 2 }
    /// ```
    /// - Parameters:
    ///   - initial: The starting value when the current value fails the test.
    ///   - isIncluded: Decides whether a value passes.
    /// - Returns: An observable of the values that passed.
    @inlinable
    public func filter(
        initial: Value,
        _ isIncluded: @escaping @Sendable (Value) -> Bool
    ) -> Observable<Value> {
        let current = snapshot()
        let start = isIncluded(current.value) ? current.value : initial
        return derive(after: current, startingWith: start) { derived, value in
            if isIncluded(value) { derived.send(value) }
        }
    }

    /// A new observable that follows this one, whose subscribers each skip the first `count` values
    /// they would receive: with the default of 1, a subscriber gets changes only, not the current value.
    ///
    /// The skipping belongs to each subscription, as with Combine's `dropFirst`: put it last in a chain,
    /// just before `subscribe`. An operator after it starts from its current value and then follows
    /// every change, so the skipping is lost there.
    /// ```swift
    /// viewModel.query.dropFirst().subscribe { search($0) }.store(in: bag)  // not for the initial ""
    /// ```
    /// - Parameter count: How many values each subscriber skips; 0 or less skips none.
    /// - Returns: An observable holding this one's value.
    public func dropFirst(_ count: Int = 1) -> Observable<Value> {
        let current = snapshot()
        let mirror = derive(after: current, startingWith: current.value) { derived, value in
            derived.send(value)
        }
        mirror.skipForEachSubscriber(max(count, 0))
        return mirror
    }
}

extension Observable where Value: Sendable & Equatable {
    /// A new observable that takes this one's values but skips a value equal to the one before it.
    /// - Returns: An observable that changes only when the value really changes.
    @inlinable
    public func removeDuplicates() -> Observable<Value> {
        let last = HandlerState<Value?>(nil)
        let current = snapshot()
        last.state = current.value
        return derive(after: current, startingWith: current.value) { derived, value in
            guard last.state != value else { return }
            last.state = value
            derived.send(value)
        }
    }
}
