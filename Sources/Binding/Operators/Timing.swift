extension Observable where Value: Sendable {
    /// A new observable that takes a change only once this one has been quiet for `interval`: a burst of
    /// changes (keystrokes in a search field) becomes its last value.
    ///
    /// It starts with the current value. Each change restarts the wait; when `interval` passes with no
    /// further change, the last value is published on `scheduler`'s thread. Releasing the derived
    /// observable cancels a wait in progress.
    /// ```swift
    /// let settledQuery = query.debounce(for: .milliseconds(250))
    /// ```
    /// - Parameters:
    ///   - interval: How long the source must stay unchanged.
    ///   - scheduler: The clock: a ``DispatchTimerScheduler`` by default, a ``ManualTimerScheduler`` in
    ///     tests.
    /// - Returns: An observable of the values that were left standing for `interval`.
    public func debounce(
        for interval: Duration,
        scheduler: some TimerScheduler = .dispatch
    ) -> Observable<Value> {
        let publisher = OrderedPublisher<Value>(keepsOnlyLatest: true)
        let pendingWait = HandlerState<Subscription?>(nil)
        let current = snapshot()
        return derive(after: current, startingWith: current.value) { derived, value in
            let generation = publisher.nextGeneration()
            let wait = scheduler.schedule(after: interval) { [weak derived] in
                guard let derived else { return }
                publisher.offer(value, from: generation, into: derived)
            }
            // The previous wait is cancelled, and released, here: outside every lock.
            pendingWait.state?.cancel()
            pendingWait.state = wait
        }
    }

    /// A new observable that takes at most one change per `interval`.
    ///
    /// It starts with the current value. A change that arrives when no window is open is published at
    /// once and opens a window of `interval`; changes inside the window are held, and when it closes the
    /// held one (the newest if `latest`, else the first) is published and opens the next window. A window
    /// that closes with nothing held ends the throttling until the next change. Values published when a
    /// window closes arrive on `scheduler`'s thread.
    /// ```swift
    /// let progressText = progress.throttle(for: .milliseconds(100), latest: true).map { "\($0)%" }
    /// ```
    /// - Parameters:
    ///   - interval: The shortest time between two published changes.
    ///   - latest: Whether a closing window publishes the newest change it held (true) or the first.
    ///   - scheduler: The clock: a ``DispatchTimerScheduler`` by default.
    /// - Returns: An observable that changes at most once per `interval`.
    public func throttle(
        for interval: Duration,
        latest: Bool,
        scheduler: some TimerScheduler = .dispatch
    ) -> Observable<Value> {
        let window = ThrottleWindow<Value>(interval: interval, keepsLatest: latest, scheduler: scheduler)
        let current = snapshot()
        let throttled = derive(after: current, startingWith: current.value) { derived, value in
            window.receive(value, into: derived)
        }
        throttled.retain(window)
        return throttled
    }

    /// A new observable that takes each change `interval` after it happened, in order.
    ///
    /// It starts with the current value. Every later change is published, none is dropped; they arrive on
    /// `scheduler`'s thread. Releasing the derived observable cancels the changes still waiting.
    /// - Parameters:
    ///   - interval: How long each change waits.
    ///   - scheduler: The clock: a ``DispatchTimerScheduler`` by default.
    /// - Returns: An observable that follows this one `interval` behind.
    public func delay(
        for interval: Duration,
        scheduler: some TimerScheduler = .dispatch
    ) -> Observable<Value> {
        let publisher = OrderedPublisher<Value>(keepsOnlyLatest: false)
        let waits = WaitingTimers()
        let current = snapshot()
        return derive(after: current, startingWith: current.value) { derived, value in
            publisher.hold(value)
            let id = waits.reserve()
            // The action holds the list weakly: the list holds the action's token, and releasing the
            // derived observable must release the list so its tokens cancel the waits.
            let wait = scheduler.schedule(after: interval) { [weak derived, weak waits] in
                waits?.finish(id)
                guard let derived else { return }
                publisher.releaseOldestHeld(into: derived)
            }
            waits.keep(wait, for: id)
        }
    }
}

/// The state of one ``Observable/throttle(for:latest:scheduler:)``: whether a window is open, and the
/// change it holds.
final class ThrottleWindow<Value: Sendable>: Sendable {
    private struct State: Sendable {
        var isOpen = false
        var held: Value?
    }

    private let interval: Duration
    private let keepsLatest: Bool
    private let scheduler: any TimerScheduler
    private let state = Locked(State())
    private let publisher = OrderedPublisher<Value>(keepsOnlyLatest: false)
    private let timer = Locked<Subscription?>(nil)

    init(interval: Duration, keepsLatest: Bool, scheduler: any TimerScheduler) {
        self.interval = interval
        self.keepsLatest = keepsLatest
        self.scheduler = scheduler
    }

    /// A change from the source.
    func receive(_ value: Value, into target: Observable<Value>) {
        let (opensWindow, replaced) = state.withLock { state -> (Bool, Value?) in
            if !state.isOpen {
                state.isOpen = true
                return (true, nil)
            }
            guard keepsLatest || state.held == nil else { return (false, nil) }
            // Swapped out, so a replaced value is released after unlocking.
            var incoming: Value? = value
            swap(&state.held, &incoming)
            return (false, incoming)
        }
        withExtendedLifetime(replaced) {}
        guard opensWindow else { return }
        publisher.offer(value, into: target)
        openWindow(publishingInto: target)
    }

    private func openWindow(publishingInto target: Observable<Value>) {
        let wait = scheduler.schedule(after: interval) { [weak self, weak target] in
            guard let self, let target else { return }
            self.closeWindow(publishingInto: target)
        }
        let previous = timer.withLock { timer -> Subscription? in
            defer { timer = wait }
            return timer
        }
        withExtendedLifetime(previous) {}
    }

    private func closeWindow(publishingInto target: Observable<Value>) {
        let held = state.withLock { state -> Value? in
            defer { state.held = nil }
            if state.held == nil { state.isOpen = false }
            return state.held
        }
        guard let held else { return }
        publisher.offer(held, into: target)
        openWindow(publishingInto: target)
    }
}

/// The timers a ``Observable/delay(for:scheduler:)`` has running, kept until they fire; releasing the
/// list cancels the rest.
final class WaitingTimers: Sendable {
    private struct State: Sendable {
        var nextID: UInt64 = 0
        var running: [UInt64: Subscription] = [:]
        /// Timers that fired before their token was kept (a zero delay on an inline scheduler).
        var finishedEarly: Set<UInt64> = []
    }

    private let state = Locked(State())

    /// An id for the timer about to be scheduled.
    func reserve() -> UInt64 {
        state.withLock { state in
            state.nextID &+= 1
            return state.nextID
        }
    }

    /// Keeps `timer` running until ``finish(_:)`` is called for `id`.
    func keep(_ timer: Subscription, for id: UInt64) {
        let finished = state.withLock { state -> Subscription? in
            if state.finishedEarly.remove(id) != nil { return timer }
            state.running[id] = timer
            return nil
        }
        withExtendedLifetime(finished) {}
    }

    /// Forgets the timer `id`, which has fired.
    func finish(_ id: UInt64) {
        let finished = state.withLock { state -> Subscription? in
            guard let timer = state.running.removeValue(forKey: id) else {
                state.finishedEarly.insert(id)
                return nil
            }
            return timer
        }
        withExtendedLifetime(finished) {}
    }
}
