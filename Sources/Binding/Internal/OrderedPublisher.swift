/// Publishes values into one observable one at a time, in the order they were offered, from whatever
/// threads offer them, and drops values that a newer *generation* has made obsolete.
///
/// The time and async operators publish from timers and tasks, which may run on several threads at
/// once. A thread that finds a publish running leaves its value queued and returns; the running thread
/// publishes it next. Calling ``nextGeneration()`` forgets every queued value, and a later ``offer(_:from:into:)``
/// of an older generation is ignored, and a queued value is checked again as it is taken for
/// publishing: that is how a late result for an old input is dropped. (A value already handed to its
/// observable when a new generation starts still lands, and the new generation's value follows it.)
/// Publishing runs with no lock held.
final class OrderedPublisher<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: every stored property is read and written only while holding `lock`.
    private let lock = Lock()
    private var generation: UInt64 = 0
    /// Values waiting to be published, with the generation they were offered in.
    private var queued: [(value: Value, generation: UInt64)] = []
    /// Values held back by ``hold(_:)`` until ``releaseOldestHeld(into:)``.
    private var held: [Value] = []
    private var isPublishing = false
    private let keepsOnlyLatest: Bool
    private weak var target: Observable<Value>?

    /// - Parameter keepsOnlyLatest: Whether a queued value is replaced by a newer one instead of queued
    ///   behind it.
    init(keepsOnlyLatest: Bool) {
        self.keepsOnlyLatest = keepsOnlyLatest
    }

    /// Starts a new generation: values queued so far, and offers from older generations, are dropped.
    /// - Returns: The new generation, to pass to ``offer(_:from:into:)``.
    func nextGeneration() -> UInt64 {
        lock.lock()
        generation &+= 1
        let dropped = queued
        queued = []
        let current = generation
        lock.unlock()
        withExtendedLifetime(dropped) {}
        return current
    }

    /// Publishes `value` into `target` (the operator's derived observable, always the same one) unless
    /// `generation` is no longer the current one.
    func offer(_ value: Value, from generation: UInt64, into target: Observable<Value>) {
        lock.lock()
        guard generation == self.generation else {
            lock.unlock()
            return
        }
        self.target = target
        var replaced: [(value: Value, generation: UInt64)] = []
        if keepsOnlyLatest { swap(&replaced, &queued) }
        queued.append((value, generation))
        drainAndUnlock()
        withExtendedLifetime(replaced) {}
    }

    /// Offers `value` in the current generation.
    func offer(_ value: Value, into target: Observable<Value>) {
        offer(value, from: lock.withLock { generation }, into: target)
    }

    /// Keeps `value` back, behind any value held before it, until ``releaseOldestHeld()``.
    func hold(_ value: Value) {
        lock.withLock { held.append(value) }
    }

    /// Publishes the oldest held value, if any, into `target`, in order with every other publish.
    func releaseOldestHeld(into target: Observable<Value>) {
        lock.lock()
        self.target = target
        guard !held.isEmpty else {
            lock.unlock()
            return
        }
        queued.append((held.removeFirst(), generation))
        drainAndUnlock()
    }

    /// Called with the lock held: publishes queued values until none is left, unless another thread is
    /// already doing so; returns with the lock released.
    private func drainAndUnlock() {
        guard !isPublishing else {
            lock.unlock()
            return
        }
        isPublishing = true
        var dropped: [Value] = []
        while !queued.isEmpty {
            let next = queued.removeFirst()
            // Checked again as it is taken: a generation started while this value waited drops it
            // (released after unlocking).
            guard next.generation == generation else {
                dropped.append(next.value)
                continue
            }
            let target = self.target
            lock.unlock()
            target?.send(next.value)
            lock.lock()
        }
        isPublishing = false
        lock.unlock()
        withExtendedLifetime(dropped) {}
    }
}
