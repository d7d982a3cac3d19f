/// A token for one subscription: cancelling it, or letting it be deallocated, stops delivery.
///
/// Until then it keeps the observable it subscribed to alive, so a chain held only by its token
/// (`count.map(format).subscribe { … }`) goes on delivering; cancelling lets go of it.
///
/// ```swift
/// let bag = SubscriptionBag()
/// viewModel.title.subscribe { print($0) }.store(in: bag)
/// ```
///
/// Cancelling is idempotent and thread-safe. After `cancel()` returns, the handler is not called again by
/// a delivery that starts later; a delivery already running on another thread may still finish.
public final class Subscription: Hashable, Sendable {
    private let onCancel: Locked<(@Sendable () -> Void)?>

    /// Creates a subscription that runs `onCancel` once, on the first `cancel()` or at deallocation.
    ///
    /// Use it to bridge other cancellable work into a ``SubscriptionBag``.
    /// - Parameter onCancel: The work that ends the subscription.
    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Locked(onCancel)
    }

    convenience init<Value>(removing id: UInt64, from observable: Observable<Value>) {
        let remover = SubscriberRemover(observable: observable, id: id)
        self.init { remover.remove() }
    }

    /// Creates a subscription that cancels all of `subscriptions` together.
    /// - Parameter subscriptions: The subscriptions to end as one.
    public convenience init(cancellingAll subscriptions: [Subscription]) {
        self.init {
            for subscription in subscriptions { subscription.cancel() }
        }
    }

    deinit {
        cancel()
    }

    /// Whether `cancel()` has run.
    public var isCancelled: Bool {
        onCancel.withLock { $0 == nil }
    }

    /// Ends the subscription. Calling it again does nothing.
    public func cancel() {
        let action = onCancel.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        action?()
    }

    /// Keeps this subscription in `bag` until the bag is emptied or deallocated.
    /// - Parameter bag: The bag that owns the subscription from now on.
    public func store(in bag: SubscriptionBag) {
        bag.insert(self)
    }

    /// Keeps this subscription in `set`, in the manner of Combine's `store(in:)`.
    /// - Parameter set: The set that owns the subscription from now on.
    public func store(in set: inout Set<Subscription>) {
        set.insert(self)
    }

    /// Subscriptions are equal only when they are the same token.
    public static func == (lhs: Subscription, rhs: Subscription) -> Bool {
        lhs === rhs
    }

    /// Hashes the token's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

/// Removes one subscriber from its observable, and keeps the observable alive until then: a token is
/// what holds `x.map(f)` in `x.map(f).subscribe { … }.store(in: bag)`, as Combine's cancellables hold
/// their chains. The observable never holds the token, so this makes no cycle.
struct SubscriberRemover<Value>: @unchecked Sendable {
    // @unchecked Sendable: the observable is only used to call `removeSubscriber(id:)`, which takes the
    // observable's lock and never touches a `Value`, so calling it from any thread is safe even when
    // `Value` is not Sendable. If this token is the observable's last owner, its deinit (and the
    // value's) runs on the thread that releases the token; an observable of a value that must die on one
    // thread should be released there, or outlive its tokens (Docs/Binding.md).
    let observable: Observable<Value>
    let id: UInt64

    func remove() {
        observable.removeSubscriber(id: id)
    }
}

/// A weak reference that may cross threads.
final class WeakReference<Object: AnyObject & Sendable>: Sendable {
    // `weak let` needs Swift 6.1 semantics on every platform; a `Locked` box keeps this portable.
    private let storage: Locked<WeakBox<Object>>

    init(_ object: Object) {
        storage = Locked(WeakBox(object: object))
    }

    var object: Object? {
        storage.withLock { $0.object }
    }
}

struct WeakBox<Object: AnyObject & Sendable>: Sendable {
    weak var object: Object?
}
