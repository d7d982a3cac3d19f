import Binding
import Foundation
import TestSupport
import Testing

@Suite("Observable: concurrency stress")
struct ConcurrencyStressTests {
    @Test func concurrentSettersAreDeliveredOnceEachAndInEachSettersOrder() async {
        // Given 4 tasks, each setting 500 values tagged with its own id
        let value = Observable(Tagged(task: -1, sequence: -1))
        let received = Recorder<Tagged>()
        let subscription = value.subscribe { received.append($0) }
        // When
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for sequence in 0..<500 { value.value = Tagged(task: task, sequence: sequence) }
                }
            }
        }
        // Then nothing is lost or duplicated, and each task's values keep their order
        let values = received.values.dropFirst()
        #expect(values.count == 2000)
        for task in 0..<4 {
            let sequences = values.filter { $0.task == task }.map(\.sequence)
            #expect(sequences == Array(0..<500))
        }
        #expect(value.value == received.values.last)
        _ = subscription
    }

    @Test func subscribingAndCancellingWhileOthersSetNeitherCrashesNorLosesValues() async {
        // Given a steady subscriber and tasks that churn subscriptions while others set
        let count = Observable(0)
        let steady = Recorder<Int>()
        let subscription = count.subscribe { steady.append($0) }
        // When
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    for value in 1...500 { count.value = value }
                }
            }
            for _ in 0..<2 {
                group.addTask {
                    for _ in 0..<500 {
                        let churn = count.subscribe { _ in }
                        churn.cancel()
                    }
                }
            }
        }
        // Then the steady subscriber saw every set, and the churned ones are gone
        #expect(steady.values.count == 1001)
        #expect(count.subscriberCount == 1)
        _ = subscription
    }

    @Test func subscribersAreNeverCalledConcurrently() async {
        // Given a subscriber that detects overlapping calls
        let count = Observable(0)
        let guardian = OverlapDetector()
        let subscription = count.subscribe { _ in guardian.enterAndLeave() }
        // When
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for value in 0..<300 { count.value = value } }
            }
        }
        // Then
        #expect(guardian.overlaps == 0)
        #expect(guardian.calls == 1201)
        _ = subscription
    }
}

struct Tagged: Sendable, Equatable {
    let task: Int
    let sequence: Int
}

/// Counts calls that overlap another call in progress.
final class OverlapDetector: @unchecked Sendable {
    // @unchecked Sendable: the counters are only touched while holding `lock`.
    private let lock = NSLock()
    private var inside = 0
    private(set) var overlaps = 0
    private(set) var calls = 0

    func enterAndLeave() {
        lock.withLock {
            calls += 1
            inside += 1
            if inside > 1 { overlaps += 1 }
        }
        lock.withLock { inside -= 1 }
    }
}
