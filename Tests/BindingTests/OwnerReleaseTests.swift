import Dispatch
import Foundation
import TestSupport
import Testing

@testable import Binding

/// An owner-bound main-actor subscription never makes its owner's `deinit` run off the main actor: the
/// value's thread takes no reference to the owner that could become the last one.
@Suite("Observable: a main-actor subscription's owner is released on the main actor")
struct OwnerReleaseTests {
    /// Records whether its `deinit` ran on the main queue.
    final class Screen: Sendable {
        let deinits: Recorder<Bool>
        init(deinits: Recorder<Bool>) { self.deinits = deinits }
        deinit { deinits.append(DispatchQueue.getSpecific(key: OwnerReleaseTests.mainKey) != nil) }
    }

    static let mainKey = DispatchSpecificKey<Bool>()

    @MainActor
    @Test func anOwnerDroppedWhileAValueIsOnItsWayIsReleasedOnTheMainActor() async throws {
        // Given an owner-bound subscription, and a value set on another thread, held on its way there
        DispatchQueue.main.setSpecific(key: Self.mainKey, value: true)
        let deinits = Recorder<Bool>()
        let title = Observable(0)
        let reached = DispatchSemaphore(value: 0)
        let dropped = DispatchSemaphore(value: 0)
        // (the seam is read when subscribing; the current value, delivered while subscribing, passes)
        let calls = Recorder<Bool>()
        title.setPublishHook {
            calls.append(true)
            guard calls.values.count > 1 else { return }
            reached.signal()
            dropped.wait()
        }
        var screen: Screen? = Screen(deinits: deinits)
        let token = title.subscribeOnMainActor(with: try #require(screen)) { _, _ in }
        Thread { title.value = 1 }.start()
        // A value that never reaches the seam (the seam moved) fails here instead of hanging the run.
        let arrived = try await offThePool { reached.wait(timeout: .now() + 30) == .success }
        try #require(arrived, "the value never reached the seam before the main actor")
        // When the main actor drops its owner meanwhile
        screen = nil
        dropped.signal()
        // Then the owner's deinit ran on the main actor, wherever the value was
        let released = await Watchdog.finishes { await waitWhile { deinits.values.isEmpty } }
        #expect(released, "the owner was never released")
        #expect(deinits.values == [true])
        _ = token
    }

    @MainActor
    @Test func aSubscriptionWhoseOwnerIsGoneEndsAtItsNextValue() async throws {
        // Given an owner-bound subscription whose owner is gone
        let title = Observable(0)
        var screen: Screen? = Screen(deinits: Recorder<Bool>())
        let token = title.subscribeOnMainActor(with: try #require(screen)) { _, _ in }
        screen = nil
        // When a value arrives from another thread and reaches the main actor
        try await offThePool { title.value = 1 }
        await waitWhile { title.subscriberCount > 0 }
        // Then the subscription has ended
        #expect(title.subscriberCount == 0)
        _ = token
    }
}
