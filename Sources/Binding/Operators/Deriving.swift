extension Observable where Value: Sendable {
    /// Creates an observable that follows this one from `snapshot` on: it starts with `initial` (which
    /// the caller computed from `snapshot.value`), and `onChange` runs for each value stored after that
    /// one, none twice. If values were stored between the snapshot and the subscription, `onChange` gets
    /// the newest of them first, as any new subscriber does.
    ///
    /// The derived observable retains this one and its subscription; this one holds the derived one
    /// weakly, and the subscription ends once the derived one is gone.
    @inlinable
    func derive<Derived: Sendable>(
        after snapshot: (value: Value, version: UInt64),
        startingWith initial: Derived,
        onChange: @escaping @Sendable (Observable<Derived>, Value) -> Void
    ) -> Observable<Derived> {
        let derived = Observable<Derived>(initial)
        let subscription = addSubscriber(unlessStillAt: snapshot.version) { [weak derived] value in
            guard let derived else { return false }
            onChange(derived, value)
            return true
        }
        derived.retain(subscription, to: self)
        return derived
    }
}

/// State an operator keeps between the values of one subscription.
///
/// `@unchecked Sendable`: only the handler of a single subscription reads or writes it, and an
/// observable never runs one subscription's handler on two threads at once; the observable's lock,
/// taken between two deliveries, orders them (see ``Observable`` on delivery order).
@usableFromInline
final class HandlerState<State>: @unchecked Sendable {
    @usableFromInline var state: State

    @usableFromInline
    init(_ state: State) {
        self.state = state
    }
}
