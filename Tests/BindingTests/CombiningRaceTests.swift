import Dispatch
import Foundation
import TestSupport
import Testing

@testable import Binding

/// Two threads writing the two sources of a combining operator at once: the result must settle on the
/// last write of each. An internal seam holds the first writer just before it publishes, while the
/// second writer runs to the end, the interleaving that left a stale result.
@Suite("Combining operators under concurrent writes")
struct CombiningRaceTests {
    /// Runs `firstWrite` on a thread of its own; when it reaches `held`'s publish seam the first time,
    /// it waits there while `secondWrite` runs to the end on this thread. Returns whether both finished.
    func interleave(
        holdingAt held: Observable<some Sendable>, firstWrite: @escaping @Sendable () -> Void,
        secondWrite: @escaping @Sendable () -> Void
    ) -> Bool {
        let otherWriterDone = DispatchSemaphore(value: 0)
        let hold = HoldOnce()
        held.setPublishHook { if hold.claim() { _ = otherWriterDone.wait(timeout: .now() + 2) } }
        return Watchdog.finishes {
            let writer = Thread(block: firstWrite)
            writer.start()
            while !hold.isClaimed { usleep(1_000) }
            secondWrite()
            otherWriterDone.signal()
            while !writer.isFinished { usleep(1_000) }
        }
    }

    /// `combineLatest` now updates its slot and publishes in one atomic step, so there is no window to
    /// hold open; this stays as a guard that the pair settles on the latest of both.
    @Test func combineLatestSettlesOnTheLatestOfBothSources() throws {
        // Given a pair
        let first = Observable(0)
        let second = Observable(0)
        let pair = first.combineLatest(second)
        // When one thread sets the first source and, while it is held before publishing, another sets
        // the second
        let finished = interleave(
            holdingAt: pair, firstWrite: { first.value = 1 }, secondWrite: { second.value = 1 })
        // Then the pair is the latest of both
        try #require(finished, "the writers deadlocked")
        #expect(pair.value == (1, 1))
    }

    @Test func aTwoWayBindingSettlesOnEqualValues() throws {
        // Given two bound observables
        let left = Observable(0)
        let right = Observable(0)
        let binding = left.bind(to: right)
        // When one thread sets the left side and, while its copy to the right is held, another sets the
        // right side
        let finished = interleave(
            holdingAt: right, firstWrite: { left.value = 1 }, secondWrite: { right.value = 2 })
        // Then the two agree on the last write, the right side's 2
        try #require(finished, "the binding never settled")
        #expect(left.value == 2)
        #expect(right.value == 2)
        binding.cancel()
    }
}

/// True for the first caller of `claim()` only.
private final class HoldOnce: @unchecked Sendable {
    // @unchecked Sendable: `claimed` is only touched while holding `lock`.
    private let lock = NSLock()
    private var claimed = false

    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if claimed { return false }
        claimed = true
        return true
    }

    var isClaimed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return claimed
    }
}
