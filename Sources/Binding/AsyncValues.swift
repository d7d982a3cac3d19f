extension Observable where Value: Sendable {
    /// The values as an `AsyncSequence`: the current value first, then each change, in order.
    ///
    /// The sequence buffers every value (none is dropped) and finishes when the iterating task is
    /// cancelled; the subscription behind it ends then too.
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
                subscription.cancel()
            }
        }
    }
}
