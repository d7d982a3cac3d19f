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
    @Test func combineLatestSettlesOnTheLatestOfBothSources() throws {
        // Given a pair, and a seam that holds the first publisher until the other writer has finished
        let first = Observable(0)
        let second = Observable(0)
        let pair = first.combineLatest(second)
        let otherWriterDone = DispatchSemaphore(value: 0)
        let held = HoldOnce()
        pair.setPublishHook { if held.claim() { _ = otherWriterDone.wait(timeout: .now() + 2) } }
        // When one thread sets the first source and, while it is held, another sets the second
        let finished = Watchdog.finishes {
            let writer = Thread {
                first.value = 1
            }
            writer.start()
            while !held.isClaimed { usleep(1_000) }
            second.value = 1
            otherWriterDone.signal()
            while !writer.isFinished { usleep(1_000) }
        }
        // Then the pair is the latest of both
        try #require(finished, "the writers deadlocked")
        #expect(pair.value == (1, 1))
    }

    @Test func aTwoWayBindingSettlesOnEqualValues() throws {
        // Given two bound observables, and a seam that holds the first propagation
        let left = Observable(0)
        let right = Observable(0)
        let binding = left.bind(to: right)
        let otherWriterDone = DispatchSemaphore(value: 0)
        let held = HoldOnce()
        right.setPublishHook { if held.claim() { _ = otherWriterDone.wait(timeout: .now() + 2) } }
        // When one thread sets the left side and, while its copy to the right is held, another sets the
        // right side
        let finished = Watchdog.finishes {
            let writer = Thread {
                left.value = 1
            }
            writer.start()
            while !held.isClaimed { usleep(1_000) }
            right.value = 2
            otherWriterDone.signal()
            while !writer.isFinished { usleep(1_000) }
        }
        // Then the two agree
        try #require(finished, "the binding never settled")
        #expect(left.value == right.value)
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
