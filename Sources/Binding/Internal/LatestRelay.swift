/// Publishes a combination of the latest values of several sources into one observable, one publish at
/// a time, whichever threads the sources deliver on.
///
/// Each source's handler writes its slot of `latest` and asks for a publish. A thread that finds a
/// publish running marks the relay dirty and returns; the running thread publishes again with the
/// newer combination before it leaves. So the last publish always carries the latest value of every
/// source: a combination read early is never published last. Publishing runs with no lock held.
@usableFromInline
final class LatestRelay<Combined: Sendable>: PublishSeam, @unchecked Sendable {
    // @unchecked Sendable: every stored property is read and written only while holding `lock`.
    @usableFromInline let lock = Lock()
    @usableFromInline var latest: Combined
    @usableFromInline var isPublishing = false
    @usableFromInline var isDirty = false
    @usableFromInline weak var target: Observable<Combined>?
    /// The test seam run before each publish; nil outside tests.
    @usableFromInline var publishHook: (@Sendable () -> Void)?

    @usableFromInline
    init(_ latest: Combined) {
        self.latest = latest
    }

    /// Connects the observable the combinations are published into.
    @usableFromInline
    func publish(into target: Observable<Combined>) {
        lock.withLock { self.target = target }
    }

    /// Stores `value` through `write` (which swaps it into its slot, so the value it replaces comes
    /// back in `value` and is released after unlocking), then publishes.
    @inlinable
    func update<Slot>(_ value: Slot, _ write: (inout Combined, inout Slot) -> Void) {
        var replaced = value
        lock.lock()
        write(&latest, &replaced)
        if isPublishing {
            isDirty = true
            lock.unlock()
            return
        }
        isPublishing = true
        var combination = latest
        var target = self.target
        var hook = publishHook
        lock.unlock()
        withExtendedLifetime(replaced) {}
        while true {
            hook?()
            target?.send(combination)
            lock.lock()
            guard isDirty else {
                isPublishing = false
                lock.unlock()
                return
            }
            isDirty = false
            let next = latest
            let nextTarget = self.target
            hook = publishHook
            lock.unlock()
            // The previous combination is released here, after unlocking.
            combination = next
            target = nextTarget
        }
    }

    func setPublishHook(_ hook: (@Sendable () -> Void)?) {
        lock.withLock { publishHook = hook }
    }
}
