extension Observable where Value: Sendable {
    /// A new observable holding the result of an async `transform` of the latest value: each change
    /// cancels the task started for the value before it, and a result that finishes after a newer value
    /// arrived is dropped. (A result already being handed to the observable when a newer value arrives
    /// still lands; the newer value's result follows it.)
    ///
    /// This is the search screen's operator: `query.debounce(…).mapLatest(initial: []) { await search($0) }`
    /// shows the results for what the user typed last, however the requests' answers are ordered.
    ///
    /// It starts with `initial`, and starts a task for the current value at once. Each task runs
    /// `transform` on the global concurrent executor (or on the actor `transform` is isolated to) and is
    /// cancelled when a newer value arrives or the derived observable is released; cooperative
    /// cancellation ends a request early, and whatever a cancelled task returns is dropped. Results are
    /// published on the thread that finishes the task.
    /// - Parameters:
    ///   - initial: The value before the first result.
    ///   - transform: Computes the result for a value; catch errors inside it and map them to a value
    ///     (an error state, an empty list).
    /// - Returns: An observable of the result for the latest value.
    public func mapLatest<Mapped: Sendable>(
        initial: Mapped,
        _ transform: @escaping @Sendable (Value) async -> Mapped
    ) -> Observable<Mapped> {
        let publisher = OrderedPublisher<Mapped>(keepsOnlyLatest: true)
        let running = RunningTask()
        let start: @Sendable (Value, Observable<Mapped>) -> Void = { value, derived in
            let generation = publisher.nextGeneration()
            let task = Task { [weak derived] in
                let result = await transform(value)
                guard !Task.isCancelled, let derived else { return }
                publisher.offer(result, from: generation, into: derived)
            }
            running.replace(with: task)
        }
        let (current, version) = snapshot()
        let derived = Observable<Mapped>(initial)
        // The task for the current value starts before the subscription can deliver a newer one, so
        // the newer one's generation is always the later.
        start(current, derived)
        let subscription = addSubscriber(unlessStillAt: version) { [weak derived] value in
            guard let derived else { return false }
            start(value, derived)
            return true
        }
        derived.retain(running)
        derived.retain(subscription, to: self)
        return derived
    }
}

/// The task a ``Observable/mapLatest(initial:_:)`` is running; replacing it, or releasing this holder,
/// cancels it.
final class RunningTask: Sendable {
    private let task = Locked<Task<Void, Never>?>(nil)

    func replace(with newTask: Task<Void, Never>) {
        let previous = task.withLock { task -> Task<Void, Never>? in
            defer { task = newTask }
            return task
        }
        previous?.cancel()
    }

    deinit {
        task.withLock { $0 }?.cancel()
    }
}
