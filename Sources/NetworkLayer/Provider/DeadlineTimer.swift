import Dispatch

/// Fires deadlines with one dispatch timer armed for the earliest pending deadline only: no polling, so
/// a request waiting quietly on its deadline causes no wake-ups before it. A request that finishes first
/// cancels its deadline; when none is left the timer stays armed for the old earliest deadline and fires
/// once, finding nothing (cheaper than re-arming it for every request of a sequence).
///
/// A deadline's handler may return a later deadline to be watched again: an idle timeout whose transfer
/// received bytes since it was armed re-arms itself once per idle period, never once per chunk.
final class DeadlineTimer: @unchecked Sendable {
    // @unchecked Sendable: `heap`, `liveCount`, `armedAt`, `fireCount`, `watchCount`, `source` and every
    // `Watch.phase` are only touched while holding `lock`.
    static let shared = DeadlineTimer()

    /// One watched deadline. `phase` is guarded by the owning timer's lock.
    final class Watch: @unchecked Sendable {
        // @unchecked Sendable: `phase` is only read and written while holding the timer's lock; `fire`
        // is immutable.
        fileprivate var phase = Phase.pending
        fileprivate var isDone: Bool { phase != .pending }
        fileprivate let fire: @Sendable (_ now: UInt64) -> UInt64?

        fileprivate init(fire: @escaping @Sendable (UInt64) -> UInt64?) {
            self.fire = fire
        }
    }

    fileprivate enum Phase {
        case pending, firing, finished
    }

    private struct Entry {
        let deadline: UInt64
        let watch: Watch
    }

    private let lock = Lock()
    private var heap: [Entry] = []
    private var liveCount = 0
    private var armedAt: UInt64?
    private var fireCount = 0
    private var watchCount = 0
    private var source: (any DispatchSourceTimer)?

    deinit {
        source?.cancel()
    }

    /// How many times the timer has fired (for tests).
    var fires: Int { lock.withLock { fireCount } }

    /// How many deadlines have been watched (for tests).
    var watches: Int { lock.withLock { watchCount } }

    /// Calls `fire` once `deadline` (in `DispatchTime` uptime nanoseconds) has passed, unless cancelled
    /// first. `fire` returns a later deadline to be called again then, or `nil` when it is done.
    @discardableResult
    func watch(until deadline: UInt64, fire: @escaping @Sendable (_ now: UInt64) -> UInt64?) -> Watch {
        let watch = Watch(fire: fire)
        lock.withLock {
            watchCount += 1
            insert(Entry(deadline: deadline, watch: watch))
        }
        return watch
    }

    /// Stops watching: the deadline will not fire, unless its handler is already running (this does not
    /// wait for it).
    func cancel(_ watch: Watch) {
        var released: [Entry] = []
        lock.withLock {
            let wasPending = watch.phase == .pending
            watch.phase = .finished
            guard wasPending else { return }
            liveCount -= 1
            if liveCount == 0 {
                swap(&released, &heap)
            } else if heap.count > 2 * liveCount + 64 {
                released = heap.filter { $0.watch.isDone }
                heap.removeAll { $0.watch.isDone }
                heapify()
            }
        }
        // Released after unlocking: a handler may hold the last reference to a caller's work.
        withExtendedLifetime(released) {}
    }

    /// `now` plus `timeout` in nanoseconds, saturating at `UInt64.max`; a negative timeout is `now`.
    static func deadline(after timeout: Duration, from now: UInt64) -> UInt64 {
        // Compared before `components`, which traps past `Int64.max` seconds (`UInt64.max` nanoseconds
        // is about 584 years).
        guard timeout > .zero else { return now }
        guard timeout < .seconds(Int64(UInt64.max / 1_000_000_000)) else { return .max }
        let (seconds, attoseconds) = timeout.components
        guard seconds >= 0, attoseconds >= 0 else { return now }
        let whole = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        guard !whole.overflow else { return .max }
        let span = whole.partialValue.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        guard !span.overflow else { return .max }
        let deadline = now.addingReportingOverflow(span.partialValue)
        return deadline.overflow ? .max : deadline.partialValue
    }

    /// The current uptime in nanoseconds, the scale deadlines are given in.
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    // MARK: - Firing

    private func fired() {
        let now = Self.now
        var due: [Watch] = []
        var released: [Entry] = []
        lock.withLock {
            fireCount += 1
            armedAt = nil
            // Due entries, and cancelled ones that reached the top, leave the heap.
            while let top = heap.first, top.deadline <= now || top.watch.isDone {
                popTop()
                guard !top.watch.isDone else {
                    released.append(top)
                    continue
                }
                top.watch.phase = .firing
                liveCount -= 1
                due.append(top.watch)
            }
            if let next = heap.first { arm(at: next.deadline) }
        }
        withExtendedLifetime(released) {}
        // Handlers run after unlocking; one that asks to be called again is watched anew.
        for watch in due {
            // A watch cancelled while an earlier one of this batch ran does not fire.
            guard lock.withLock({ watch.phase == .firing }) else { continue }
            let later = watch.fire(now)
            lock.withLock {
                // A watch cancelled while it was firing stays finished.
                guard let later, watch.phase == .firing else {
                    watch.phase = .finished
                    return
                }
                watch.phase = .pending
                insert(Entry(deadline: later, watch: watch))
            }
        }
    }

    // MARK: - Heap (called with `lock` held)

    private func insert(_ entry: Entry) {
        liveCount += 1
        heap.append(entry)
        siftUp(heap.count - 1)
        if armedAt.map({ entry.deadline < $0 }) ?? true { arm(at: entry.deadline) }
    }

    private func arm(at deadline: UInt64) {
        armedAt = deadline
        let source = self.source ?? Self.makeSource(for: self)
        self.source = source
        source.schedule(
            deadline: DispatchTime(uptimeNanoseconds: deadline), repeating: .never, leeway: .milliseconds(1))
    }

    private func popTop() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        if !heap.isEmpty { siftDown(0) }
    }

    private func heapify() {
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    private func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }

    /// Built in a nonisolated function so the handler is never inferred to be main-actor isolated.
    private static func makeSource(for timer: DeadlineTimer) -> any DispatchSourceTimer {
        let source = DispatchSource.makeTimerSource(queue: .global())
        source.setEventHandler { [weak timer] in timer?.fired() }
        source.resume()
        return source
    }
}
