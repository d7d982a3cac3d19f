import DIKit
import Foundation
import TestSupport
import Testing

/// Two threads creating singletons that need each other would each wait for the other forever; the
/// container refuses the wait that closes the circle and reports it.
@Suite("Container: singletons created on two threads at once")
struct CreationGateTests {
    @Test func singletonsThatNeedEachOtherFailOnBothThreadsInsteadOfHanging() throws {
        // Given two singletons that need each other, and factories that wait until both have started
        let container = Container()
        let bothStarted = Rendezvous(parties: 2)
        container.register(Left.self, scope: .singleton) { resolver in
            bothStarted.arrive()
            return Left(right: try resolver.resolve())
        }
        container.register(Right.self, scope: .singleton) { resolver in
            bothStarted.arrive()
            return Right(left: try resolver.resolve())
        }
        let errors = Recorder<ResolutionError>()
        // When one thread resolves Left and another Right, at the same time
        let finished = Watchdog.finishes {
            let group = DispatchGroup()
            for index in 0..<2 {
                group.enter()
                Thread {
                    do throws(ResolutionError) {
                        if index == 0 {
                            _ = try container.resolve(Left.self)
                        } else {
                            _ = try container.resolve(Right.self)
                        }
                    } catch {
                        errors.append(error)
                    }
                    group.leave()
                }.start()
            }
            group.wait()
        }
        // Then neither hangs; one is told the other thread holds what it needs, naming both paths
        try #require(finished, "the two resolves deadlocked")
        #expect(errors.values.count == 2)
        let refused = errors.values.compactMap { error -> (ResolutionError, [String])? in
            if case .crossThreadCycle(let otherPath) = error.reason { return (error, otherPath) }
            return nil
        }
        let (error, otherPath) = try #require(refused.first)
        #expect(Set([error.path, otherPath]) == [["Left", "Right"], ["Right", "Left"]])
        #expect(error.description.contains("another thread"))
    }

    @Test func aFactoryWaitsForASingletonAnotherThreadIsCreatingWithoutACycle() throws {
        // Given a slow singleton, and a transient that needs it
        let container = Container()
        let creating = DispatchSemaphore(value: 0)
        let made = Counter()
        container.register(Service.self, scope: .singleton) { _ in
            creating.signal()
            Thread.sleep(forTimeInterval: 0.05)
            made.increment()
            return Service()
        }
        container.register(ValueService.self) { resolver in
            _ = try resolver.resolve(Service.self)
            return ValueService()
        }
        let results = Recorder<Bool>()
        // When one thread creates the singleton and another resolves the transient meanwhile
        let finished = Watchdog.finishes {
            let group = DispatchGroup()
            group.enter()
            Thread {
                results.append((try? container.resolve(Service.self)) != nil)
                group.leave()
            }.start()
            creating.wait()
            results.append((try? container.resolve(ValueService.self)) != nil)
            group.wait()
        }
        // Then the second waited and shared the one instance
        try #require(finished)
        #expect(results.values == [true, true])
        #expect(made.value == 1)
    }
}

private final class Left: Sendable {
    let right: Right
    init(right: Right) { self.right = right }
}

private final class Right: Sendable {
    let left: Left
    init(left: Left) { self.left = left }
}

/// Lets the first `parties` callers of `arrive()` wait for each other (for at most two seconds); later
/// callers pass straight through.
private final class Rendezvous: @unchecked Sendable {
    // @unchecked Sendable: `arrived` is only touched while holding `condition`.
    private let condition = NSCondition()
    private let parties: Int
    private var arrived = 0

    init(parties: Int) { self.parties = parties }

    func arrive() {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        if arrived == parties { condition.broadcast() }
        let deadline = Date().addingTimeInterval(2)
        while arrived < parties, condition.wait(until: deadline) {}
    }
}
