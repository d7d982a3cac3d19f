/// A thread-safe box around a value that many subscribers can watch: the glue between a view model and
/// its views.
///
/// `subscribe` delivers the current value at once, then every change. Read and write ``value`` from any
/// thread; no lock is held while subscribers run, so a subscriber may set the value, subscribe or cancel
/// (itself included) from inside its own callback.
///
/// ```swift
/// let title = Observable("Loading…")
/// let subscription = title.subscribe { print($0) }  // prints "Loading…"
/// title.value = "Box office"                        // prints "Box office"
/// subscription.cancel()
/// ```
///
/// ## Delivery order
/// Values are delivered in one total order, the order in which they were set, and subscribers of one
/// observable are never called concurrently. The thread that finds the observable idle delivers, on
/// itself, before its setter returns. A value set while a delivery round is running (from a subscriber,
/// or from another thread) is queued and delivered by the running thread after the current round, so a
/// recursive set never deadlocks and never reorders. See Docs/Binding.md.
///
/// Use `Observable<T?>` when "no value" means something; nil is then delivered like any other value.
public final class Observable<Value> {
    @usableFromInline typealias Handler = @Sendable (Value) -> Bool

    @usableFromInline let lock = Lock()
    // Everything below is guarded by `lock`.
    @usableFromInline var storedValue: Value
    @usableFromInline var subscribers: ContiguousArray<Subscriber<Value>> = []
    @usableFromInline var pendingEvents: [DeliveryEvent<Value>] = []
    @usableFromInline var isDelivering = false
    /// Counts the values stored, so ``modify(_:)`` can tell whether another write came in between.
    @usableFromInline var version: UInt64 = 0
    private var nextSubscriberID: UInt64 = 0
    private var upstream: [AnyObject] = []
    /// How many values each new subscriber skips (``dropFirst(_:)``); 0 for most observables.
    private var skippedPerSubscriber = 0
    /// A test seam: run by the combining operators and a two-way binding just before they set this
    /// observable (read under the lock the set takes anyway), and on a value's thread before an
    /// owner-bound main-actor subscription made after it was set hands the value on (read once, when
    /// subscribing). `nil` outside tests.
    @usableFromInline var publishHook: (@Sendable () -> Void)?

    /// Creates an observable holding `value`.
    /// - Parameter value: The initial value, delivered to every new subscriber.
    public init(_ value: Value) {
        storedValue = value
    }

    /// The current value. Setting it delivers the new value to every subscriber, on this thread, before
    /// the setter returns, unless a delivery round is already running (see the type's documentation).
    ///
    /// - Important: `observable.value += 1` is a read followed by a write, not one atomic step; use
    ///   ``modify(_:)`` when two threads may change the value at once.
    public var value: Value {
        @inlinable get {
            lock.lock()
            defer { lock.unlock() }
            return storedValue
        }
        @inlinable set {
            send(newValue)
        }
    }

    /// Changes the value in place, as one atomic step, and delivers the result like a set.
    ///
    /// `observable.value += 1` reads, then writes: two threads doing it at once can lose an increment.
    /// `observable.modify { $0 += 1 }` cannot. `body` runs with no lock held; if another write lands
    /// between the read and the write, `body` runs again on the newer value, so keep it free of side
    /// effects.
    /// ```swift
    /// counter.modify { $0 += 1 }
    /// let count = names.modify { $0.append("new"); return $0.count }
    /// ```
    /// - Parameter body: Changes the value; what it returns, `modify` returns.
    /// - Returns: What `body` returned on the run that was stored.
    /// - Throws: What `body` throws; the value is then unchanged.
    @discardableResult
    public func modify<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        while true {
            lock.lock()
            var copy = storedValue
            let seen = version
            lock.unlock()
            let result = try body(&copy)
            lock.lock()
            if version == seen {
                sendLocked(copy)
                return result
            }
            lock.unlock()
        }
    }

    /// The number of active subscriptions.
    public var subscriberCount: Int {
        lock.withLock { subscribers.count }
    }

    /// Subscribes `handler`: it receives the current value at once, then every change, until the
    /// returned subscription is cancelled or deallocated.
    ///
    /// - Parameter handler: Called with each value on the thread that delivers it.
    /// - Returns: A token; keep it (for example in a ``SubscriptionBag``) for as long as you want values.
    @inlinable
    public func subscribe(_ handler: @escaping @Sendable (Value) -> Void) -> Subscription {
        addSubscriber { value in
            handler(value)
            return true
        }
    }

    /// Subscribes `handler` on behalf of `owner`, which the handler receives without the observable
    /// retaining it.
    ///
    /// The subscription ends by itself once `owner` is deallocated, so a view can observe its view model
    /// without the retain cycle a closure capturing `self` strongly would create. The handler is never
    /// called without its owner.
    ///
    /// - Parameters:
    ///   - owner: The object the subscription lives for, held weakly.
    ///   - handler: Called with the owner and each value.
    /// - Returns: A token; cancelling or releasing it also ends the subscription, so keep it (a value left
    ///   unused is a warning).
    public func subscribe<Owner: AnyObject & Sendable>(
        with owner: Owner,
        _ handler: @escaping @Sendable (Owner, Value) -> Void
    ) -> Subscription {
        let weakOwner = WeakReference(owner)
        return addSubscriber { value in
            guard let owner = weakOwner.object else { return false }
            handler(owner, value)
            return true
        }
    }

    // MARK: - Internals shared with the operators and delivery targets

    /// Registers `handler` (which returns false to end its own subscription) and delivers the current
    /// value to it, in order with every other delivery.
    ///
    /// - Parameters:
    ///   - seenVersion: When the value is still the one stored at this version (see ``snapshot()``), the
    ///     current value is not delivered: the caller has it already, and gets only the changes after
    ///     it. A newer value is delivered as usual.
    ///   - everyValue: Whether the handler receives every value whatever ``dropFirst(_:)`` asks (a
    ///     two-way binding, which must copy each one).
    @usableFromInline
    func addSubscriber(
        unlessStillAt seenVersion: UInt64? = nil, everyValue: Bool = false, _ handler: @escaping Handler
    ) -> Subscription {
        lock.lock()
        nextSubscriberID &+= 1
        var handler = handler
        // Only subscribers skip what ``dropFirst(_:)`` asks; an operator after it (the only caller that
        // passes `seenVersion`) starts from the current value and follows every change, whatever the count.
        let skipped = seenVersion == nil && !everyValue ? skippedPerSubscriber : 0
        if skipped > 0 {
            handler = Self.skipping(skipped, handler)
        }
        let subscriber = Subscriber(id: nextSubscriberID, handler: handler)
        subscribers.append(subscriber)
        let current = storedValue
        let subscription = Subscription(removing: subscriber.id, from: self)
        if seenVersion == version {
            lock.unlock()
        } else if isDelivering {
            pendingEvents.append(.initial(current, subscriber))
            lock.unlock()
        } else {
            isDelivering = true
            lock.unlock()
            deliver(current, to: subscriber)
            deliverPendingEvents()
        }
        return subscription
    }

    /// The current value and the version it was stored at, read together.
    @usableFromInline
    func snapshot() -> (value: Value, version: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        return (storedValue, version)
    }

    /// Stores and delivers `newValue` only if no other value was stored since `seenVersion`.
    /// - Returns: Whether it was stored.
    func send(_ newValue: Value, ifStillAt seenVersion: UInt64) -> Bool {
        lock.lock()
        if let hook = publishHook {
            lock.unlock()
            hook()
            lock.lock()
        }
        guard version == seenVersion else {
            lock.unlock()
            return false
        }
        sendLocked(newValue)
        return true
    }

    /// Wraps `handler` so that it ignores the first `count` values it is given.
    private static func skipping(_ count: Int, _ handler: @escaping Handler) -> Handler {
        let remaining = SkipCounter(count)
        return { value in
            if remaining.consumeOne() { return true }
            return handler(value)
        }
    }

    /// Makes every later subscriber skip the first `count` values it would receive. Set once, by
    /// ``dropFirst(_:)``, before the observable is handed out.
    func skipForEachSubscriber(_ count: Int) {
        lock.withLock { skippedPerSubscriber = count }
    }

    /// Keeps `source`, and this observable's `subscription` to it, alive for as long as this observable
    /// lives. Derived observables use it, so a chain such as `a.map(f).removeDuplicates()` holds its
    /// middle link; the source holds the derived observable only weakly, so there is no cycle.
    @usableFromInline
    func retain(_ subscription: Subscription, to source: AnyObject) {
        lock.withLock {
            upstream.append(subscription)
            upstream.append(source)
        }
    }

    /// Sets the test seam (see `publishHook`; it costs no lock per value when unset).
    func setPublishHook(_ hook: (@Sendable () -> Void)?) {
        var replaced = hook
        lock.withLock { swap(&publishHook, &replaced) }
        // The previous hook is released here, after unlocking.
    }

    /// Keeps `object` alive for as long as this observable lives (an operator's state, a timer).
    @usableFromInline
    func retain(_ object: AnyObject) {
        lock.withLock { upstream.append(object) }
    }
}

// @unchecked Sendable: every stored property is guarded by `lock` (see the comment on the properties),
// subscribers are called with no lock held, and values only cross threads when `Value` is Sendable.
extension Observable: @unchecked Sendable where Value: Sendable {}
