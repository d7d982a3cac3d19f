/// How a value reaches the subscribers: a set, a part of the value replaced in one step, a delivery
/// round and the events queued behind it, and a subscriber's removal.
extension Observable {
    /// Replaces one part of the value, as one atomic step, and delivers the result like a set: how
    /// ``combineLatest(_:)`` stores a source's change in its slot of the tuple.
    ///
    /// `write` swaps `part` into its place; it must only move values (it runs under the lock). The part
    /// it replaces is released after unlocking.
    @inlinable
    func update<Part>(_ part: Part, _ write: (inout Value, inout Part) -> Void) {
        lock.lock()
        if let hook = publishHook {
            lock.unlock()
            hook()
            lock.lock()
        }
        var next = storedValue
        var replaced = part
        write(&next, &replaced)
        sendLocked(next)
        withExtendedLifetime(replaced) {}
    }

    @inlinable
    func send(_ newValue: Value) {
        lock.lock()
        sendLocked(newValue)
    }

    /// Stores and delivers `newValue`; called with the lock held, and returns with it released.
    @inlinable
    func sendLocked(_ newValue: Value) {
        // The replaced value is released after unlocking: its deinit may read this observable.
        let replaced = storedValue
        storedValue = newValue
        version &+= 1
        if subscribers.isEmpty {
            lock.unlock()
            withExtendedLifetime(replaced) {}
            return
        }
        let recipients = subscribers
        if isDelivering {
            pendingEvents.append(.broadcast(newValue, recipients))
            lock.unlock()
            withExtendedLifetime(replaced) {}
            return
        }
        isDelivering = true
        lock.unlock()
        withExtendedLifetime(replaced) {}
        broadcast(newValue, to: recipients)
        deliverPendingEvents()
    }

    @inlinable
    func broadcast(_ value: Value, to recipients: ContiguousArray<Subscriber<Value>>) {
        // The first recipient cannot have been cancelled on this thread since the snapshot was taken.
        var index = recipients.startIndex
        if index < recipients.endIndex {
            let first = recipients[index]
            if !first.handler(value) { removeSubscriber(id: first.id) }
            index += 1
        }
        while index < recipients.endIndex {
            deliver(value, to: recipients[index])
            index += 1
        }
    }

    @inlinable
    func deliver(_ value: Value, to subscriber: Subscriber<Value>) {
        lock.lock()
        let isActive = subscriber.isActive
        lock.unlock()
        guard isActive else { return }
        if !subscriber.handler(value) {
            removeSubscriber(id: subscriber.id)
        }
    }

    /// Runs on the delivering thread until no event is left, then marks the observable idle.
    @inlinable
    func deliverPendingEvents() {
        while true {
            lock.lock()
            if pendingEvents.isEmpty {
                isDelivering = false
                lock.unlock()
                return
            }
            let events = pendingEvents
            pendingEvents = []
            lock.unlock()
            for event in events {
                switch event {
                case .broadcast(let value, let recipients):
                    for subscriber in recipients { deliver(value, to: subscriber) }
                case .initial(let value, let subscriber):
                    deliver(value, to: subscriber)
                }
            }
        }
    }

    @usableFromInline
    func removeSubscriber(id: UInt64) {
        lock.lock()
        var removed: Subscriber<Value>?
        if let index = subscribers.firstIndex(where: { $0.id == id }) {
            subscribers[index].isActive = false
            removed = subscribers.remove(at: index)
        }
        lock.unlock()
        // Released after unlocking: the handler's captures may cancel or subscribe here in their deinit.
        withExtendedLifetime(removed) {}
    }
}
