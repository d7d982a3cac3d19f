/// Which way a two-way binding copies.
enum BindingDirection: Sendable, Equatable {
    case forward
    case backward
}

extension Observable where Value: Sendable & Equatable {
    /// Binds this observable and `other` both ways: `other` takes this one's value now, and from then on
    /// a change to either is copied to the other.
    ///
    /// A value equal to the target's current value is not copied, so a change travels once across and
    /// stops: the two never ping-pong. Copies run one at a time and each copies the source's current
    /// value, so when two threads set the two sides at once the binding settles with both equal.
    /// Neither observable retains the other.
    /// - Parameter other: The observable to keep equal to this one.
    /// - Returns: A token that ends the binding in both directions.
    public func bind(to other: Observable<Value>) -> Subscription {
        let relay = SerialRelay<BindingDirection> { [weak self, weak other] direction in
            guard let self, let other else { return }
            let (source, target) = direction == .forward ? (self, other) : (other, self)
            let value = source.value
            guard target.value != value else { return }
            target.runPublishHook()
            target.value = value
        }
        let forward = subscribe { _ in relay.submit(.forward) }
        let backward = other.subscribe { _ in relay.submit(.backward) }
        return Subscription(cancellingAll: [forward, backward])
    }
}
