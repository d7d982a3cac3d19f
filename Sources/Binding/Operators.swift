extension Observable where Value: Sendable {
    /// A new observable holding `transform` of this one's value, updated on every change.
    ///
    /// The derived observable retains this one and its subscription to it, and ends the subscription
    /// when it is deallocated; this one holds the derived one only weakly. `transform` should be pure: it may run an
    /// extra time when the derived observable is created.
    /// - Parameter transform: Maps each value; runs on the delivering thread.
    /// - Returns: An observable that follows this one.
    public func map<Mapped: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Mapped
    ) -> Observable<Mapped> {
        let derived = Observable<Mapped>(transform(value))
        let subscription = subscribe { [weak derived] value in
            derived?.value = transform(value)
        }
        derived.retain(subscription, to: self)
        return derived
    }

    /// A new observable holding the latest values of this one and `other` as a pair, updated when either
    /// changes.
    /// - Parameter other: The second source.
    /// - Returns: An observable of `(self.value, other.value)`.
    public func combineLatest<Other: Sendable>(
        _ other: Observable<Other>
    ) -> Observable<(Value, Other)> {
        let derived = Observable<(Value, Other)>((value, other.value))
        let first = subscribe { [weak derived, weak other] value in
            guard let derived, let other else { return }
            derived.value = (value, other.value)
        }
        let second = other.subscribe { [weak derived, weak self] otherValue in
            guard let derived, let self else { return }
            derived.value = (self.value, otherValue)
        }
        derived.retain(first, to: self)
        derived.retain(second, to: other)
        return derived
    }
}

extension Observable where Value: Sendable & Equatable {
    /// A new observable that takes this one's values but skips a value equal to the one before it.
    /// - Returns: An observable that changes only when the value really changes.
    public func removeDuplicates() -> Observable<Value> {
        let derived = Observable<Value>(value)
        let subscription = subscribe { [weak derived] value in
            guard let derived, derived.value != value else { return }
            derived.value = value
        }
        derived.retain(subscription, to: self)
        return derived
    }

    /// Binds this observable and `other` both ways: `other` takes this one's value now, and from then on
    /// a change to either is copied to the other.
    ///
    /// A value equal to the target's current value is not copied, so a change travels once across and
    /// stops: the two never ping-pong. Neither observable retains the other.
    /// - Parameter other: The observable to keep equal to this one.
    /// - Returns: A token that ends the binding in both directions.
    public func bind(to other: Observable<Value>) -> Subscription {
        let forward = subscribe { [weak other] value in
            guard let other, other.value != value else { return }
            other.value = value
        }
        let backward = other.subscribe { [weak self] value in
            guard let self, self.value != value else { return }
            self.value = value
        }
        return Subscription(cancellingAll: [forward, backward])
    }
}
