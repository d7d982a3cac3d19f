import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transfer's `401` with a challenge, held until the session's delegate has answered the challenge:
/// the session's terms (its delegate, its credentials) apply to every request kind.
extension TransferHandler {
    /// Whether the transfer has its answer already, so a challenge must not go to the session's delegate:
    /// it ended, or its `401` was given out because the body outgrew what is held. Such a transfer ends
    /// here, its body complete: FoundationNetworking asks for a credential only once the body has ended.
    func settlesChallengeItself() -> Bool {
        let (ended, gaveOut) = state.withLock { ($0.end != nil, $0.gaveOutHeld) }
        if gaveOut, !ended { finish(.success(()), cancellingTask: true) }
        return ended || gaveOut
    }

    /// The session's delegate answered the challenge of a held `401`: with a credential the request is
    /// sent again and the held answer dropped; otherwise the held answer is the final one.
    func challengeAnswered(retrying: Bool) {
        if retrying {
            state.withLock { $0.held = nil }
        } else {
            _ = releaseHeldAnswer()
        }
    }

    /// Delivers a held `401` and its body as the transfer's answer and ends it. Returns whether one was held.
    func releaseHeldAnswer() -> Bool {
        let taken = state.withLock { state in
            defer { state.held = nil }
            return state.held
        }
        guard let held = taken else { return false }
        if deliver(held.head) {
            receive(held.body.bytes)
        }
        finish(.success(()), cancellingTask: true)
        return true
    }

    /// Whether URLSession hands the delegate a `401` and its body before asking it for a credential, and
    /// sends again after: FoundationNetworking does (measured), so its `401`s are held until the answer
    /// to the challenge is known, as Apple platforms' URLSession decides before it reports a response.
    static let deliversChallengedHeads = runsOnFoundationNetworking
}
