import Dispatch
import Foundation

extension Observable where Value: Sendable {
    /// Subscribes `handler` to run asynchronously on `queue`: the current value first, then every change.
    ///
    /// Values arrive in the order they were set when `queue` is serial (as `DispatchQueue.main` is).
    /// - Parameters:
    ///   - queue: The queue each value is delivered on.
    ///   - handler: Called on `queue` with each value.
    /// - Returns: A token. After `cancel()` returns, no value reaches `handler`, not even one already
    ///   dispatched to `queue` (a call already running on `queue` may finish).
    public func subscribe(
        on queue: DispatchQueue,
        _ handler: @escaping @Sendable (Value) -> Void
    ) -> Subscription {
        let active = ActiveFlag()
        let subscription = addSubscriber { value in
            queue.async { if active.isActive { handler(value) } }
            return true
        }
        return Subscription(deactivating: active, then: subscription)
    }

    /// Subscribes `handler` to run on the main actor: the current value first, then every change, in
    /// order.
    ///
    /// A value set on the main thread, when nothing is waiting to be delivered, is handled before the
    /// setter returns, so a screen is configured before it is first drawn. A value set elsewhere hops to
    /// the main queue. The main queue must be running (an app, `dispatchMain()`, or an async `main`).
    /// - Parameter handler: Called on the main actor with each value.
    /// - Returns: A token that ends the subscription. After `cancel()` returns, no value reaches
    ///   `handler`, not even one already queued for the main actor.
    public func subscribeOnMainActor(
        _ handler: @escaping @MainActor @Sendable (Value) -> Void
    ) -> Subscription {
        let hop = MainActorHop(handler)
        let subscription = addSubscriber { value in
            hop.deliver(value)
            return true
        }
        return Subscription(deactivating: hop.active, then: subscription)
    }

    /// Subscribes `handler` to run on the main actor on behalf of `owner`, which is held weakly; the
    /// subscription ends once `owner` is deallocated.
    /// - Parameters:
    ///   - owner: The object the subscription lives for (a view or view controller).
    ///   - handler: Called on the main actor with the owner and each value.
    /// - Returns: A token; cancelling or releasing it also ends the subscription, so keep it (a value left
    ///   unused is a warning). After `cancel()` returns, no queued value reaches `handler`.
    public func subscribeOnMainActor<Owner: AnyObject & Sendable>(
        with owner: Owner,
        _ handler: @escaping @MainActor @Sendable (Owner, Value) -> Void
    ) -> Subscription {
        let weakOwner = WeakReference(owner)
        let hop = MainActorHop<Value> { value in
            guard let owner = weakOwner.object else { return }
            handler(owner, value)
        }
        let subscription = addSubscriber { value in
            guard weakOwner.object != nil else { return false }
            hop.deliver(value)
            return true
        }
        return Subscription(deactivating: hop.active, then: subscription)
    }
}

/// Whether a subscription is still wanted: cleared by `cancel()`, checked by a delivery that was
/// queued before it.
final class ActiveFlag: Sendable {
    private let state = Locked(true)

    var isActive: Bool { state.withLock { $0 } }

    func deactivate() { state.withLock { $0 = false } }
}

extension Subscription {
    /// A token that clears `flag` (so queued deliveries are dropped), then ends `subscription`.
    convenience init(deactivating flag: ActiveFlag, then subscription: Subscription) {
        self.init {
            flag.deactivate()
            subscription.cancel()
        }
    }
}

/// Delivers values to a main-actor handler in order: inline when already on the main thread with nothing
/// queued, otherwise through the main queue.
final class MainActorHop<Value: Sendable>: Sendable {
    private let handler: @MainActor @Sendable (Value) -> Void
    private let queued = Locked(0)
    /// Cleared when the subscription is cancelled; a delivery checks it on the main actor.
    let active = ActiveFlag()

    init(_ handler: @escaping @MainActor @Sendable (Value) -> Void) {
        self.handler = handler
    }

    /// Called by the observable's delivering thread; calls are never concurrent.
    func deliver(_ value: Value) {
        if MainQueue.isCurrent, queued.withLock({ $0 == 0 }) {
            if active.isActive { MainActor.assumeIsolated { handler(value) } }
            return
        }
        queued.withLock { $0 += 1 }
        DispatchQueue.main.async {
            if self.active.isActive { MainActor.assumeIsolated { self.handler(value) } }
            self.queued.withLock { $0 -= 1 }
        }
    }
}

/// Tells whether the caller runs on the main actor's executor.
enum MainQueue {
    private static let key = DispatchSpecificKey<Bool>()
    private static let marked: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: true)
        return true
    }()

    /// True on the main thread (Apple platforms run main-actor code there) and inside a block of the
    /// main queue, which on Linux, after `dispatchMain()`, may be served by a thread that is not the
    /// process's main thread.
    static var isCurrent: Bool {
        if Thread.isMainThread { return true }
        _ = marked
        return DispatchQueue.getSpecific(key: key) == true
    }
}
