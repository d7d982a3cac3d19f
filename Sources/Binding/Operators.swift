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
    ///
    /// When both sources are set at once from two threads, the pair settles on the last value of each:
    /// updates run one at a time and each reads both sources' current values, so a pair computed early
    /// is never published last.
    /// - Parameter other: The second source.
    /// - Returns: An observable of `(self.value, other.value)`.
    public func combineLatest<Other: Sendable>(
        _ other: Observable<Other>
    ) -> Observable<(Value, Other)> {
        let derived = Observable<(Value, Other)>((value, other.value))
        let relay = SerialRelay<CombineEvent> { [weak derived, weak self, weak other] _ in
            guard let derived, let self, let other else { return }
            let pair = (self.value, other.value)
            derived.runPublishHook()
            derived.value = pair
        }
        let first = subscribe { _ in relay.submit(.recompute) }
        let second = other.subscribe { _ in relay.submit(.recompute) }
        derived.retain(first, to: self)
        derived.retain(second, to: other)
        return derived
    }
}

/// What a combining operator's relay is asked to do.
enum CombineEvent: Sendable, Equatable {
    /// Read the sources again and publish.
    case recompute
}

/// Which way a two-way binding copies.
enum BindingDirection: Sendable, Equatable {
    case forward
    case backward
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
