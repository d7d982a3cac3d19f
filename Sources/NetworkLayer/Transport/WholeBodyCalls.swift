import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A whole-body attempt's timeout and coalescing, over a transport's way of starting one: the same for
/// every transport.
///
/// An attempt not shared is raced against its timeout with no Swift task of its own (a URLSession data
/// task reports to the race directly), so a request costs no more thread hops than `data(for:)`. A shared
/// one runs in a task of its own, which the callers sharing it wait for.
struct WholeBodyCalls: Sendable {
    /// Starts an attempt that reports to its `finish` closure, and returns how to stop it.
    typealias Start =
        @Sendable (
            URLRequest, AttemptRules, @escaping @Sendable (ResponseSink.Answer) -> Void
        ) -> Timeout.Cancel

    /// Shares identical `GET`s; `nil` when the provider does not coalesce.
    let coalescer: RequestCoalescer?
    let clock: any Clock<Duration>
    let deadlines: DeadlineTimer

    /// Runs `start` for `request` under `rules`, racing `rules.attemptTimeout`; an identical `GET` may
    /// share its call when `shares` (its body is kept whole, so every caller can have it).
    func call(
        _ request: URLRequest, rules: AttemptRules, record: AttemptRecord, shares: Bool,
        start: @escaping Start
    ) async throws -> (Data, HTTPURLResponse) {
        let timeout = rules.attemptTimeout
        let start = Self.unlessCancelled(start)
        guard shares, let coalescer, request.httpMethod == "GET" else {
            return try await Timeout.race(after: timeout, clock: clock, deadlines: deadlines) { finish in
                start(request, rules, finish)
            }
        }
        // A caller already cancelled sends nothing (the operation below runs in a task of its own).
        try Task.checkCancellation()
        let send: @Sendable () async throws -> (Data, HTTPURLResponse) = {
            // Requests share a call only under the same limit and statuses (see `signature`).
            try await coalescer.response(for: request, sharingOnly: rules.signature, record: record) {
                try await Timeout.untimed { start(request, rules, $0) }
            }
        }
        return try await Timeout.run(after: timeout, clock: clock, deadlines: deadlines, operation: send)
    }

    /// `start`, run in the task that waits (the caller's, or a shared call's) only while it is not
    /// cancelled: a cancelled one starts nothing and finishes with `URLError(.cancelled)`, so no request
    /// of a call nobody waits for reaches the server.
    static func unlessCancelled(_ start: @escaping Start) -> Start {
        { request, rules, finish in
            guard !Task.isCancelled else {
                finish(.failure(URLError(.cancelled)))
                return {}
            }
            return start(request, rules, finish)
        }
    }
}
