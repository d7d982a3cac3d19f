import Binding
import Foundation
import TestSupport
import Testing

/// `value(where:within:)`: a test's wait for a value that answers instead of hanging.
@Suite("Observable: waiting for a value, with a deadline")
struct ValueWaitTests {
    @Test func theCurrentValueAnswersAtOnceWhenItMatches() async throws {
        let query = Observable("ready")
        let value = try await query.value(where: { $0 == "ready" })
        #expect(value == "ready")
    }

    @Test func aLaterValueAnswersWhenItArrives() async throws {
        // Given a wait for a count of 3
        let count = Observable(0)
        let waiter = Task { try await count.value(where: { $0 >= 3 }) }
        await waitWhile { count.subscriberCount == 0 }
        // When the count climbs from another task
        for next in 1...3 { count.value = next }
        // Then
        #expect(try await waiter.value == 3)
    }

    @Test func aValueThatNeverComesFailsNamingWhatWasSeen() async throws {
        // Given an observable that goes through two values, neither the one awaited
        let status = Observable("idle")
        status.value = "loading"
        // When the wait runs out
        let thrown = await #expect(throws: ValueWaitTimeout.self) {
            _ = try await status.value(where: { $0 == "loaded" }, within: .milliseconds(50))
        }
        // Then it says how long it waited and what it saw
        #expect(thrown?.seen == ["loading"])
        #expect(thrown?.timeout == .milliseconds(50))
        #expect(thrown?.description.contains("loading") == true)
    }

    @Test func onlyTheLatestValuesSeenAreKept() async throws {
        // Given a wait of 2 s (a loaded machine still sets 20 values within it), with 20 values set
        let count = Observable(0)
        let waiter = Task { try await count.value(where: { $0 < 0 }, within: .seconds(2)) }
        await waitWhile { count.subscriberCount == 0 }
        for next in 1...20 { count.value = next }
        // Then the timeout names the last eight
        let thrown = await #expect(throws: ValueWaitTimeout.self) { try await waiter.value }
        #expect(thrown?.seen == (13...20).map(String.init))
    }

    @Test func cancellingTheWaitingTaskThrowsCancellationError() async throws {
        let status = Observable("idle")
        let waiter = Task { try await status.value(where: { $0 == "never" }, within: .seconds(60)) }
        await waitWhile { status.subscriberCount == 0 }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }

    @Test func theWaitLeavesNoSubscriptionBehind() async throws {
        let status = Observable("idle")
        _ = try await status.value(where: { $0 == "idle" })
        _ = try? await status.value(where: { $0 == "never" }, within: .milliseconds(10))
        #expect(status.subscriberCount == 0)
    }
}
