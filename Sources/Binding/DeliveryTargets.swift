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
    ///
    /// With `.latestValue`, values set faster than the main actor takes them are coalesced: when it runs,
    /// the handler gets only the newest one (a view needs the latest state, not every step to it).
    /// - Parameters:
    ///   - delivery: `.everyValue` (the default) or `.latestValue`.
    ///   - handler: Called on the main actor with each value.
    /// - Returns: A token that ends the subscription. After `cancel()` returns, no value reaches
    ///   `handler`, not even one already queued for the main actor.
    public func subscribeOnMainActor(
        delivering delivery: MainActorDelivery = .everyValue,
        _ handler: @escaping @MainActor @Sendable (Value) -> Void
    ) -> Subscription {
        let hop = MainActorHop(delivery, handler)
        let subscription = addSubscriber { value in
            hop.deliver(value)
            return true
        }
        return Subscription(deactivating: hop.active, then: subscription)
    }

    /// Subscribes `handler` to run on the main actor on behalf of `owner`, which is held weakly; the
    /// subscription ends at the first value that reaches the main actor after `owner` is deallocated.
    /// The owner is only ever referenced on the main actor, so its `deinit` runs there.
    /// - Parameters:
    ///   - owner: The object the subscription lives for (a view or view controller).
    ///   - delivery: `.everyValue` (the default) or `.latestValue`, as for the form without an owner.
    ///   - handler: Called on the main actor with the owner and each value.
    /// - Returns: A token; cancelling or releasing it also ends the subscription, so keep it (a value left
    ///   unused is a warning). After `cancel()` returns, no queued value reaches `handler`.
    public func subscribeOnMainActor<Owner: AnyObject & Sendable>(
        with owner: Owner,
        delivering delivery: MainActorDelivery = .everyValue,
        _ handler: @escaping @MainActor @Sendable (Owner, Value) -> Void
    ) -> Subscription {
        // The owner is only ever loaded on the main actor: a strong reference taken on the value's thread
        // could be the last one when the main actor drops its own, and run the owner's deinit there.
        let weakOwner = WeakReference(owner)
        // Weakly: the token is the caller's, and releasing it must still end the subscription.
        let ending = Locked<WeakBox<Subscription>>(WeakBox(object: nil))
        let hop = MainActorHop<Value>(delivery) { value in
            guard let owner = weakOwner.object else {
                ending.withLock { $0.object }?.cancel()
                return
            }
            handler(owner, value)
        }
        // The test seam is read once, here, so a value pays nothing for it.
        let hook = lock.withLock { publishHook }
        let subscription = addSubscriber { value in
            hook?()
            hop.deliver(value)
            return true
        }
        let token = Subscription(deactivating: hop.active, then: subscription)
        ending.withLock { $0.object = token }
        return token
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

/// Which values a main-actor subscription receives when several are set before the main actor runs.
public enum MainActorDelivery: Sendable, Equatable {
    /// Every value, in order.
    case everyValue
    /// Only the newest value set since the handler last ran; the ones in between are skipped. The
    /// handler still never sees an older value after a newer one.
    case latestValue
}

/// Delivers values to a main-actor handler in order: inline when already on the main thread with nothing
/// queued, otherwise through the main queue (one block per value, or one block for the newest value when
/// coalescing).
final class MainActorHop<Value: Sendable>: Sendable {
    private struct State: Sendable {
        /// Blocks sent to the main queue and not yet run.
        var queued = 0
        /// With `.latestValue`: the newest value, waiting for the one block in flight.
        var latest: Value?
    }

    private let handler: @MainActor @Sendable (Value) -> Void
    private let delivery: MainActorDelivery
    private let state = Locked(State())
    /// Cleared when the subscription is cancelled; a delivery checks it on the main actor.
    let active = ActiveFlag()

    init(_ delivery: MainActorDelivery, _ handler: @escaping @MainActor @Sendable (Value) -> Void) {
        self.delivery = delivery
        self.handler = handler
    }

    /// Called by the observable's delivering thread; calls are never concurrent.
    func deliver(_ value: Value) {
        if MainQueue.isCurrent, state.withLock({ $0.queued == 0 }) {
            if active.isActive { MainActor.assumeIsolated { handler(value) } }
            return
        }
        switch delivery {
        case .everyValue:
            state.withLock { $0.queued += 1 }
            DispatchQueue.main.async {
                if self.active.isActive { MainActor.assumeIsolated { self.handler(value) } }
                self.state.withLock { $0.queued -= 1 }
            }
        case .latestValue:
            let (schedules, replaced) = state.withLock { state -> (Bool, Value?) in
                var incoming: Value? = value
                swap(&state.latest, &incoming)
                guard state.queued == 0 else { return (false, incoming) }
                state.queued = 1
                return (true, incoming)
            }
            // A skipped value is released here, after unlocking.
            withExtendedLifetime(replaced) {}
            guard schedules else { return }
            DispatchQueue.main.async { self.deliverLatest() }
        }
    }

    /// Runs on the main queue: hands the newest value to the handler, then goes again if another value
    /// came in meanwhile. The block counts as queued until then, so a value set on the main thread meanwhile
    /// waits its turn instead of reaching the handler inside its own call.
    private func deliverLatest() {
        let newest = state.withLock { state -> Value? in
            defer { state.latest = nil }
            return state.latest
        }
        if let newest, active.isActive { MainActor.assumeIsolated { handler(newest) } }
        let goesAgain = state.withLock { state -> Bool in
            guard state.latest != nil else {
                state.queued = 0
                return false
            }
            return true
        }
        if goesAgain { DispatchQueue.main.async { self.deliverLatest() } }
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
