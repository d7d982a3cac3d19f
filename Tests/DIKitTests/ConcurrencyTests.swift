import DIKit
import Foundation
import TestSupport
import Testing

@Suite("Container: concurrency")
struct ConcurrencyTests {
    @Test func oneHundredConcurrentFirstResolvesOfASingletonMakeOneInstance() async throws {
        // Given
        let container = Container()
        let made = Counter()
        container.register(Service.self, scope: .singleton) { _ in
            made.increment()
            return Service()
        }
        // When
        let ids = await withTaskGroup(of: UUID?.self) { group in
            for _ in 0..<100 {
                group.addTask { try? container.resolve(Service.self).id }
            }
            var ids = Set<UUID?>()
            for await id in group { ids.insert(id) }
            return ids
        }
        // Then
        #expect(made.value == 1)
        #expect(ids.count == 1)
        #expect(ids.first != nil)
    }

    @Test func registeringAndResolvingFromManyTasksAtOnceIsSafe() async {
        // Given
        let container = makeAppContainer()
        // When
        let failures = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var failures = 0
                    for index in 0..<200 {
                        container.register(String.self, name: "\(task)-\(index)") { _ in "value" }
                        if (try? container.resolve(DailyBoxOfficeViewModel.self)) == nil { failures += 1 }
                        if (try? container.resolve(String.self, name: "\(task)-\(index)")) != "value" {
                            failures += 1
                        }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        // Then
        #expect(failures == 0)
    }

    @Test func registeringWhileThreadsResolveWithoutPauseIsNotStarved() {
        // Given two threads resolving a singleton and a transient from one container without pause
        let container = Container()
        container.register(Service.self, scope: .singleton) { _ in Service() }
        container.register(String.self) { _ in "transient" }
        let stop = StopFlag()
        let readers = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: readers) {
                while !stop.isRaised {
                    _ = try? container.resolve(Service.self)
                    _ = try? container.resolve(String.self)
                }
            }
        }
        // When a third thread registers and releases instances meanwhile
        let finished = Watchdog.finishes {
            for index in 0..<500 {
                container.register(Int.self, name: "\(index)") { _ in index }
                if index.isMultiple(of: 50) { container.releaseInstances() }
            }
        }
        stop.raise()
        readers.wait()
        // Then the writer finished: readers sharing the lock never kept it from registering
        #expect(finished, "registering waited behind resolves that never paused")
        #expect((try? container.resolve(Int.self, name: "499")) == 499)
    }
}

/// A flag one thread raises and others poll.
final class StopFlag: @unchecked Sendable {
    // @unchecked Sendable: `raised` is only read or written while holding `lock`.
    private let lock = NSLock()
    private var raised = false

    var isRaised: Bool { lock.withLock { raised } }

    func raise() { lock.withLock { raised = true } }
}
