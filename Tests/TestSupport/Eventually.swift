import Foundation

/// Naps a millisecond at a time until `condition` holds, for at most `timeout`; returns whether it held,
/// so a broken rule fails instead of hanging the run.
/// - Parameters:
///   - timeout: How long to wait; 10 seconds by default, far above any healthy run.
///   - condition: Checked on the caller's isolation.
@discardableResult
public func eventually(
    isolation: isolated (any Actor)? = #isolation, within timeout: Duration = .seconds(10),
    _ condition: () -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}

/// Naps a millisecond at a time while `condition` holds. Unlike a loop of `Task.yield()`, a nap gives the
/// thread back: a yielding task is enqueued again at once, at its own priority, so on a small cooperative
/// pool (two threads here) work of a lower priority, the very work it waits for, may not get a thread
/// (a ThreadSanitizer run that never ended showed only such a loop busy). Cancelled, it yields instead.
/// - Parameter condition: Checked on the caller's isolation.
public func waitWhile(isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool) async {
    while condition() {
        do {
            try await Task.sleep(for: .milliseconds(1))
        } catch {
            await Task.yield()
        }
    }
}
