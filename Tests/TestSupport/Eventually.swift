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
