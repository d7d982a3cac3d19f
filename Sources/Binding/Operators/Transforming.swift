extension Observable where Value: Sendable {
    /// A new observable holding `transform` of this one's value, updated on every change.
    ///
    /// `transform` runs once for the current value, then once for every change, on the thread that
    /// delivers it. The derived observable retains this one (see Docs/Binding.md on chains).
    /// ```swift
    /// let title = count.map { "\($0) movies" }
    /// ```
    /// - Parameter transform: Maps each value.
    /// - Returns: An observable that follows this one.
    @inlinable
    public func map<Mapped: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Mapped
    ) -> Observable<Mapped> {
        let current = snapshot()
        return derive(after: current, startingWith: transform(current.value)) { derived, value in
            derived.send(transform(value))
        }
    }

    /// A new observable holding the non-nil results of `transform`.
    ///
    /// It starts with `transform` of the current value, or with `initial` when that is nil; afterwards a
    /// change whose result is nil is skipped.
    /// ```swift
    /// let year = yearText.compactMap(initial: 2026) { Int($0) }
    /// ```
    /// - Parameters:
    ///   - initial: The starting value when the current value maps to nil.
    ///   - transform: Maps each value, or returns nil to skip it.
    /// - Returns: An observable of the non-nil results.
    @inlinable
    public func compactMap<Mapped: Sendable>(
        initial: Mapped,
        _ transform: @escaping @Sendable (Value) -> Mapped?
    ) -> Observable<Mapped> {
        let current = snapshot()
        return derive(after: current, startingWith: transform(current.value) ?? initial) { derived, value in
            if let mapped = transform(value) { derived.send(mapped) }
        }
    }

    /// A new observable accumulating this one's values: it starts with `next(initial, current value)`,
    /// and each change `v` replaces its value `a` with `next(a, v)`.
    /// ```swift
    /// let total = sales.scan(0) { $0 + $1 }
    /// ```
    /// - Parameters:
    ///   - initial: The accumulator before the first value.
    ///   - next: Combines the accumulator with a value; runs on the delivering thread, one call at a
    ///     time.
    /// - Returns: An observable of the running result.
    @inlinable
    public func scan<Result: Sendable>(
        _ initial: Result,
        _ next: @escaping @Sendable (Result, Value) -> Result
    ) -> Observable<Result> {
        let accumulator = HandlerState(initial)
        let current = snapshot()
        accumulator.state = next(initial, current.value)
        return derive(after: current, startingWith: accumulator.state) { derived, value in
            accumulator.state = next(accumulator.state, value)
            derived.send(accumulator.state)
        }
    }
}
