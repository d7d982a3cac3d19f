import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the pipeline asks of an endpoint: its status check, what middlewares are told about it, and the
/// rules its attempts run under.
extension Endpoint {
    /// Throws ``NetworkError/unacceptableStatus(_:)``, carrying `body`, unless this endpoint accepts the
    /// status of `http`.
    func checkStatus(of http: HTTPURLResponse, body: Data) throws(NetworkError) {
        guard acceptableStatusCodes.contains(http.statusCode) else {
            throw .unacceptableStatus(
                .init(statusCode: http.statusCode, headers: http.headerFields, body: body, url: http.url))
        }
    }

    /// What middlewares are told about this endpoint.
    var context: RequestContext {
        RequestContext(
            endpointName: name, isIdempotent: isIdempotent, acceptableStatusCodes: acceptableStatusCodes,
            metrics: RequestMetricsLog())
    }

    /// The rules of this endpoint's attempts, with `limit` for a whole body its own
    /// ``maximumResponseSize`` does not set.
    func rules(defaultLimit limit: Int) -> AttemptRules {
        AttemptRules(
            endpoint: name, accepts: acceptableStatusCodes, limit: maximumResponseSize ?? limit,
            timeout: timeout, deadline: deadline)
    }
}

/// What one attempt of an endpoint may be, as the transports need it (the endpoint's type is not theirs):
/// a whole body of at most `limit` bytes (at least 0) for a status the endpoint accepts, its idle timeout
/// and its total deadline.
struct AttemptRules: Sendable {
    /// The endpoint's name, for errors.
    let endpoint: String
    let accepts: any StatusCodeSet
    let limit: Int
    /// The idle timeout: of a transfer, between bytes; of a whole-body attempt, with the deadline, its
    /// total (``attemptTimeout``).
    let timeout: Duration
    let deadline: Duration?
    /// Where the total deadline counts from (``DeadlineTimer/now``), for an attempt made of several
    /// transfers (a download's windows); each transfer's own start when `nil`.
    var startedAt: UInt64?

    init(
        endpoint: String, accepts: any StatusCodeSet, limit: Int, timeout: Duration = .seconds(60),
        deadline: Duration? = nil
    ) {
        self.endpoint = endpoint
        self.accepts = accepts
        self.limit = max(0, limit)
        self.timeout = timeout
        self.deadline = deadline
    }

    /// The limit of a whole-body attempt: the idle timeout, or the total deadline when it is shorter.
    var attemptTimeout: Duration {
        deadline.map { min($0, timeout) } ?? timeout
    }

    /// These rules with no size limit: a download goes to disk.
    var unlimited: AttemptRules {
        var rules = AttemptRules(
            endpoint: endpoint, accepts: accepts, limit: .max, timeout: timeout, deadline: deadline)
        rules.startedAt = startedAt
        return rules
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
