import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport of a whole-body request: on a `URLSession`, the provider's own session collecting the
/// body as it arrives, bounded (see ``BodyCollector``); on any other session, the session's answer,
/// checked against the same rules.
extension NetworkProvider {
    /// Sends a request through the session and returns its whole body, as `rules` allow, racing
    /// `timeout`.
    func dataTransport(timeout: Duration, rules: WholeBodyRules) -> NetworkMiddleware.Next {
        { [self] request in
            let coalesces = configuration.coalescesIdenticalGETs && request.httpMethod == "GET"
            let fetch = try wholeBody(rules)
            if !coalesces, session is URLSession {
                return try await Timeout.race(
                    after: timeout, clock: configuration.clock, deadlines: configuration.deadlines
                ) { finish in fetch(request, finish) }
            }
            // A caller already cancelled sends nothing (the operation below runs in a task of its own).
            try Task.checkCancellation()
            let send: @Sendable () async throws -> (Data, HTTPURLResponse) = { [coalescer] in
                // Requests share a call only under the same limit and statuses (see `signature`).
                coalesces
                    ? try await coalescer.response(for: request, sharingOnly: rules.signature) {
                        try await Timeout.untimed { fetch(request, $0) }
                    }
                    : try await Timeout.untimed { fetch(request, $0) }
            }
            return try await Timeout.run(
                after: timeout, clock: configuration.clock, deadlines: configuration.deadlines,
                operation: send)
        }
    }

    /// Starts a whole-body request that reports to its `finish` closure and returns how to stop it: on
    /// NetworkLayer's own session for a `URLSession`, collecting the body as it arrives under `rules`;
    /// through the session itself otherwise, checking the body it returns against them.
    private func wholeBody(
        _ rules: WholeBodyRules
    ) throws(NetworkError)
        -> @Sendable (URLRequest, @escaping @Sendable (BodyCollector.Outcome) -> Void) ->
        Timeout.Cancel
    {
        if let urlSession = session as? URLSession {
            let transfers = try dataTransfers(for: urlSession, endpoint: rules.endpoint)
            return { [deadlines = configuration.deadlines] request, finish in
                // Runs in the caller's task: a caller already cancelled starts no task.
                guard !Task.isCancelled else {
                    finish(.failure(URLError(.cancelled)))
                    return {}
                }
                return transfers.collect(
                    request, limit: rules.limit, accepts: rules.accepts, deadlines: deadlines, finish: finish)
            }
        }
        return { [session] request, finish in
            let work = startTask {
                do {
                    let (data, head) = try await session.response(for: request)
                    guard rules.accepts.contains(head.statusCode) else {
                        // A refused status keeps its body's first bytes, as on a URLSession.
                        finish(.success((data.prefix(min(rules.limit, Self.errorBodyLimit)), head)))
                        return
                    }
                    if data.count > rules.limit { throw NetworkError.responseTooLarge(limit: rules.limit) }
                    finish(.success((data, head)))
                } catch {
                    finish(.failure(Self.sessionFailure(error)))
                }
            }
            return { work.cancel() }
        }
    }
}

/// What a whole body may be: at most `limit` bytes (at least 0) for a status the endpoint accepts.
struct WholeBodyRules: Sendable {
    let limit: Int
    let accepts: any StatusCodeSet
    /// The endpoint's name, for errors.
    let endpoint: String

    init(limit: Int, accepts: any StatusCodeSet, endpoint: String) {
        self.limit = max(0, limit)
        self.accepts = accepts
        self.endpoint = endpoint
    }

    /// The limit and the accepted statuses (as ranges, `200-299,404`): requests share a coalesced call
    /// only when these are the same, so none lifts, lowers or cuts another's body.
    var signature: String {
        var ranges: [String] = []
        var start: Int?
        for code in 100...600 {
            let accepted = code < 600 && accepts.contains(code)
            if accepted, start == nil { start = code }
            if !accepted, let first = start {
                ranges.append(first == code - 1 ? "\(first)" : "\(first)-\(code - 1)")
                start = nil
            }
        }
        return "limit \(limit) accepts \(ranges.joined(separator: ","))"
    }
}
