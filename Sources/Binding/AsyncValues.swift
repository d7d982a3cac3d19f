extension Observable where Value: Sendable {
    /// The values as an `AsyncSequence`: the current value first, then each change, in order.
    ///
    /// The sequence buffers every value (none is dropped) and finishes when the iterating task is
    /// cancelled; the subscription behind it ends then too. The sequence keeps this observable alive
    /// while it exists, so `source.map(f).values` goes on delivering though nothing else holds the map.
    /// ```swift
    /// for await entries in viewModel.entries.values {
    ///     render(entries)
    /// }
    /// ```
    public var values: AsyncStream<Value> {
        AsyncStream { continuation in
            let subscription = subscribe { value in
                continuation.yield(value)
            }
            continuation.onTermination = { _ in
                // Holding `self` here keeps a derived observable, which nothing else may hold, alive
                // until the stream ends; the cycle through the continuation ends with it.
                withExtendedLifetime(self) {}
                subscription.cancel()
            }
        }
    }
}
