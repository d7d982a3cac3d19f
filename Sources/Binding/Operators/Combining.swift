extension Observable where Value: Sendable {
    /// A new observable holding the latest values of this one and `other` as a pair, updated when either
    /// changes.
    ///
    /// When both sources are set at once from two threads, the pair settles on the last value of each: a
    /// change replaces its own half of the stored pair and publishes the result in one atomic step, so no
    /// pair read early can be published last.
    /// ```swift
    /// let screen = date.combineLatest(mode)   // Observable<(String, Mode)>
    /// ```
    /// - Parameter other: The second source.
    /// - Returns: An observable of `(self.value, other.value)`.
    @inlinable
    public func combineLatest<Other: Sendable>(
        _ other: Observable<Other>
    ) -> Observable<(Value, Other)> {
        let (first, firstVersion) = snapshot()
        let (second, secondVersion) = other.snapshot()
        let derived = Observable<(Value, Other)>((first, second))
        let watchFirst = addSubscriber(unlessStillAt: firstVersion) { [weak derived] value in
            guard let derived else { return false }
            derived.update(value) { swap(&$0.0, &$1) }
            return true
        }
        let watchSecond = other.addSubscriber(unlessStillAt: secondVersion) { [weak derived] value in
            guard let derived else { return false }
            derived.update(value) { swap(&$0.1, &$1) }
            return true
        }
        derived.retain(watchFirst, to: self)
        derived.retain(watchSecond, to: other)
        return derived
    }

    /// A new observable holding the latest values of this one, `second` and `third`, updated when any of
    /// them changes; concurrent writes settle as for ``combineLatest(_:)``.
    /// - Parameters:
    ///   - second: The second source.
    ///   - third: The third source.
    /// - Returns: An observable of `(self.value, second.value, third.value)`.
    @inlinable
    public func combineLatest<Second: Sendable, Third: Sendable>(
        _ second: Observable<Second>, _ third: Observable<Third>
    ) -> Observable<(Value, Second, Third)> {
        let (a, aVersion) = snapshot()
        let (b, bVersion) = second.snapshot()
        let (c, cVersion) = third.snapshot()
        let derived = Observable<(Value, Second, Third)>((a, b, c))
        let watchFirst = addSubscriber(unlessStillAt: aVersion) { [weak derived] value in
            guard let derived else { return false }
            derived.update(value) { swap(&$0.0, &$1) }
            return true
        }
        let watchSecond = second.addSubscriber(unlessStillAt: bVersion) { [weak derived] value in
            guard let derived else { return false }
            derived.update(value) { swap(&$0.1, &$1) }
            return true
        }
        let watchThird = third.addSubscriber(unlessStillAt: cVersion) { [weak derived] value in
            guard let derived else { return false }
            derived.update(value) { swap(&$0.2, &$1) }
            return true
        }
        derived.retain(watchFirst, to: self)
        derived.retain(watchSecond, to: second)
        derived.retain(watchThird, to: third)
        return derived
    }

    /// A new observable that takes every change of this one and of `others`, in the order they arrive.
    ///
    /// It starts with this observable's current value; the current values of `others` are not changes
    /// and are not taken. Changes set at once on two threads arrive in either order; the merged value is
    /// then whichever arrived last.
    /// ```swift
    /// let status = networkStatus.merge(cacheStatus, userMessages)
    /// ```
    /// - Parameter others: More sources of the same type.
    /// - Returns: An observable of the latest change of any source.
    public func merge(_ others: Observable<Value>...) -> Observable<Value> {
        let current = snapshot()
        let merged = derive(after: current, startingWith: current.value) { derived, value in
            derived.send(value)
        }
        for other in others {
            let version = other.snapshot().version
            let subscription = other.addSubscriber(unlessStillAt: version) { [weak merged] value in
                guard let merged else { return false }
                merged.send(value)
                return true
            }
            merged.retain(subscription, to: other)
        }
        return merged
    }
}
