import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transfer's timeouts: idle, after its last activity, and total, from its start.
extension TransferHandler {
    /// The earlier of the idle deadline after `lastActivity` and the total deadline; `nil` for neither.
    func nextDue(lastActivity: UInt64) -> UInt64? {
        let idle = idleTimeout.map { DeadlineTimer.deadline(after: $0, from: lastActivity) }
        let total = deadline.map { DeadlineTimer.deadline(after: $0, from: startedAt) }
        switch (idle, total) {
        case (let idle?, let total?): return min(idle, total)
        default: return idle ?? total
        }
    }

    /// Called by the timer: times the transfer out, or says when to look again.
    func checkTimeouts(at now: UInt64) -> UInt64? {
        guard let lastActivity = state.withLock({ $0.end == nil ? $0.lastActivity : nil }) else { return nil }
        if let deadline, now >= DeadlineTimer.deadline(after: deadline, from: startedAt) {
            fail(NetworkError.timedOut(deadline))
            return nil
        }
        if let idleTimeout, now >= DeadlineTimer.deadline(after: idleTimeout, from: lastActivity) {
            fail(NetworkError.timedOut(idleTimeout))
            return nil
        }
        return nextDue(lastActivity: lastActivity)
    }
}
