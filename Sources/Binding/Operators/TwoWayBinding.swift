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
    /// stops: the two never ping-pong. Copies run one at a time, each copies the source's current value,
    /// and a copy never overwrites a value written to its target after the copy read it, so when two
    /// threads set the two sides at once the binding settles with both equal to the last write.
    /// Neither observable retains the other. A ``dropFirst(_:)`` on either side does not apply to the
    /// binding, which copies every value.
    /// - Parameter other: The observable to keep equal to this one.
    /// - Returns: A token that ends the binding in both directions.
    public func bind(to other: Observable<Value>) -> Subscription {
        let relay = SerialRelay<BindingDirection> { [weak self, weak other] direction in
            guard let self, let other else { return }
            let (source, target) = direction == .forward ? (self, other) : (other, self)
            let value = source.value
            let (current, version) = target.snapshot()
            guard current != value else { return }
            // A write to the target since the snapshot wins: its own copy back is queued behind this one.
            _ = target.send(value, ifStillAt: version)
        }
        // Every value, whatever `dropFirst` asks of either side's subscribers: a binding copies them all.
        let forward = addSubscriber(everyValue: true) { _ in
            relay.submit(.forward)
            return true
        }
        let backward = other.addSubscriber(everyValue: true) { _ in
            relay.submit(.backward)
            return true
        }
        return Subscription(cancellingAll: [forward, backward])
    }
}
