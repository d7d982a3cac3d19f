/// One registered handler. `isActive` is guarded by the owning observable's lock.
@usableFromInline
final class Subscriber<Value> {
    @usableFromInline let id: UInt64
    @usableFromInline let handler: Observable<Value>.Handler
    @usableFromInline var isActive = true

    @usableFromInline
    init(id: UInt64, handler: @escaping Observable<Value>.Handler) {
        self.id = id
        self.handler = handler
    }
}

/// A delivery waiting for the current round to finish.
@usableFromInline
enum DeliveryEvent<Value> {
    /// A value set while a round was running, for the subscribers registered when it was set.
    case broadcast(Value, ContiguousArray<Subscriber<Value>>)
    /// The current value for a subscriber that subscribed while a round was running.
    case initial(Value, Subscriber<Value>)
}

/// Counts down the values a ``Observable/dropFirst(_:)`` subscriber still skips.
final class SkipCounter: @unchecked Sendable {
    // @unchecked Sendable: only the handler of one subscriber touches it, and an observable never calls
    // one subscriber's handler concurrently; the observable's lock, taken between two deliveries, orders
    // them.
    private var remaining: Int

    init(_ count: Int) {
        remaining = count
    }

    /// True, and one fewer left, while values are still to be skipped.
    func consumeOne() -> Bool {
        guard remaining > 0 else { return false }
        remaining -= 1
        return true
    }
}
