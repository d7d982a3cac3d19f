/// A thread-safe collection of subscriptions that all end when the bag is emptied or deallocated.
///
/// Give each view or view model one bag; its subscriptions then live exactly as long as it does.
/// ```swift
/// final class BoxOfficeView {
///     private let bag = SubscriptionBag()
///     func bind(to viewModel: BoxOfficeViewModel) {
///         viewModel.entries.subscribe(with: self) { view, entries in view.render(entries) }.store(in: bag)
///     }
/// }
/// ```
public final class SubscriptionBag: Sendable {
    private let subscriptions = Locked<[Subscription]>([])

    /// Creates an empty bag.
    public init() {}

    deinit {
        cancelAll()
    }

    /// The number of subscriptions the bag holds.
    public var count: Int {
        subscriptions.withLock { $0.count }
    }

    /// Adds `subscription`; it ends when the bag is emptied or deallocated.
    /// - Parameter subscription: The subscription to keep.
    public func insert(_ subscription: Subscription) {
        subscriptions.withLock { $0.append(subscription) }
    }

    /// Cancels every subscription in the bag and empties it. The bag can be reused afterwards.
    public func cancelAll() {
        let removed = subscriptions.withLock { stored -> [Subscription] in
            defer { stored = [] }
            return stored
        }
        // Cancel outside the lock: cancelling may run code that inserts into this bag again.
        for subscription in removed { subscription.cancel() }
    }
}
