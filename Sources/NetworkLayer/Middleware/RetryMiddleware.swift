import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// When and how often to retry.
public struct RetryPolicy: Sendable {
    /// The most attempts, the first included. 3 by default.
    public var maxAttempts: Int
    /// The wait before the second attempt. 0.5 seconds by default.
    public var initialDelay: Duration
    /// Each further wait is the previous one times this. 2 by default (0.5 s, 1 s, 2 s, …).
    public var multiplier: Double
    /// No wait is longer than this, `Retry-After` included. 30 seconds by default.
    public var maxDelay: Duration
    /// Each wait is scaled by a random factor in `1 ± jitter`, so clients that failed together do not
    /// retry together. 0.2 by default; 0 for exact waits.
    public var jitter: Double
    /// Whether a server's `Retry-After` (seconds or an HTTP date) replaces the computed wait. `true` by
    /// default.
    public var honoursRetryAfter: Bool
    /// Whether requests that are not idempotent (`POST`, `PATCH`) are retried too. `false` by default.
    public var retriesNonIdempotentRequests: Bool
    /// Which failures are worth another attempt: a thrown error (a `URLError` arrives as
    /// ``NetworkError/transport(_:)``) or a status the endpoint does not accept (as
    /// ``NetworkError/unacceptableStatus(_:)``). ``NetworkError/isTransient`` by default. To give up at
    /// once offline: `{ $0.isTransient && !$0.isOffline }`.
    public var isRetryable: @Sendable (NetworkError) -> Bool

    /// Creates a policy.
    /// - Parameters:
    ///   - maxAttempts: 3 by default.
    ///   - initialDelay: 0.5 seconds by default.
    ///   - multiplier: 2 by default.
    ///   - maxDelay: 30 seconds by default.
    ///   - jitter: 0.2 by default.
    ///   - honoursRetryAfter: `true` by default.
    ///   - retriesNonIdempotentRequests: `false` by default.
    ///   - isRetryable: Which failures are retried; ``NetworkError/isTransient`` by default.
    public init(
        maxAttempts: Int = 3,
        initialDelay: Duration = .milliseconds(500),
        multiplier: Double = 2,
        maxDelay: Duration = .seconds(30),
        jitter: Double = 0.2,
        honoursRetryAfter: Bool = true,
        retriesNonIdempotentRequests: Bool = false,
        isRetryable: @escaping @Sendable (NetworkError) -> Bool = { $0.isTransient }
    ) {
        self.maxAttempts = maxAttempts
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.honoursRetryAfter = honoursRetryAfter
        self.retriesNonIdempotentRequests = retriesNonIdempotentRequests
        self.isRetryable = isRetryable
    }

    /// The wait before attempt `attempt + 1`, without jitter.
    /// - Parameter attempt: The attempt that just failed, from 1.
    /// - Returns: The exponential delay, capped at ``maxDelay``.
    public func backoff(afterAttempt attempt: Int) -> Duration {
        let seconds = initialDelay.timeInterval * pow(multiplier, Double(max(attempt - 1, 0)))
        // A late attempt or a large multiplier makes `seconds` infinite; `.seconds(seconds:)` saturates.
        return min(.seconds(seconds: seconds), maxDelay)
    }

    /// This policy with every value in range, as ``RetryMiddleware`` uses it: at least one attempt;
    /// delays no shorter than zero; a multiplier that is a finite number no smaller than zero (otherwise
    /// 1); jitter between 0 and 1 (NaN is 0).
    var clamped: RetryPolicy {
        var policy = self
        policy.maxAttempts = max(maxAttempts, 1)
        policy.initialDelay = max(initialDelay, .zero)
        policy.maxDelay = max(maxDelay, .zero)
        policy.multiplier = multiplier.isFinite && multiplier >= 0 ? multiplier : 1
        policy.jitter = jitter.isNaN ? 0 : min(max(jitter, 0), 1)
        return policy
    }
}

/// Retries idempotent requests after transient failures: timeouts, lost or refused connections, and the
/// statuses 408, 429 and 5xx (except 501), with exponential backoff and jitter, honouring `Retry-After`.
/// Which failures count is the policy's ``RetryPolicy/isRetryable`` (``NetworkError/isTransient``, whose
/// documentation lists the `URLError` codes, by default).
///
/// With an ``HTTPCache``, a failure a stale stored answer may stand in for (the request's
/// ``CachePolicy/maximumStalenessOnError`` or the response's `stale-if-error`) is answered from the
/// store before this middleware sees it: offline, the answer comes at once, with no backoff. And in
/// ``NetworkProvider/responses(for:)``, once the stored answer was yielded, a failure that says the server
/// cannot be reached (offline, a refused connection, a host not found) is not retried: the sequence
/// throws it at once. A lost connection or a timeout is retried as usual.
///
/// Put it last in the chain (closest to the transport) so each attempt gets its own timeout.
public struct RetryMiddleware: NetworkMiddleware {
    /// The policy.
    public let policy: RetryPolicy
    private let sleep: @Sendable (Duration) async throws -> Void
    private let random: @Sendable () -> Double

    /// Creates the middleware.
    ///
    /// Values out of range are clamped once, here: at least one attempt, no negative delay, a multiplier
    /// that is a finite number no smaller than zero (otherwise 1), jitter between 0 and 1.
    /// - Parameters:
    ///   - policy: When and how often; ``RetryPolicy/init(maxAttempts:initialDelay:multiplier:maxDelay:jitter:honoursRetryAfter:retriesNonIdempotentRequests:isRetryable:)``'s
    ///     defaults by default.
    ///   - sleep: Waits between attempts; `Task.sleep(for:)` by default. Tests inject one that records.
    ///   - random: A number in `0..<1` for jitter; the system generator by default.
    public init(
        policy: RetryPolicy = RetryPolicy(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = {
            // A century at most: `Task.sleep` traps on `.seconds(Int64.max)`, a `maxDelay` one may set.
            try await Task.sleep(for: min(max($0, .zero), .seconds(100 * 365 * 86_400)))
        },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.policy = policy.clamped
        self.sleep = sleep
        self.random = random
    }

    /// Sends the request, and again after each transient failure, up to the policy's attempts.
    public func intercept(
        _ request: URLRequest, context: RequestContext, next: Next
    ) async throws -> (Data, HTTPURLResponse) {
        guard context.isIdempotent || policy.retriesNonIdempotentRequests, policy.maxAttempts > 1 else {
            return try await next(request)
        }
        var attempt = 1
        while true {
            let delay: Duration
            do {
                let (data, response) = try await next(request)
                guard attempt < policy.maxAttempts,
                    !context.acceptableStatusCodes.contains(response.statusCode),
                    policy.isRetryable(
                        .unacceptableStatus(
                            .init(
                                statusCode: response.statusCode, headers: response.headerFields, body: data,
                                url: response.url)))
                else { return (data, response) }
                delay = retryAfter(response) ?? jittered(policy.backoff(afterAttempt: attempt))
            } catch {
                // The network step of `responses(for:)` after a stored answer was shown: the user has
                // that answer, and a failure with no response (offline, a refused connection) is the
                // news now, not after a backoff.
                let showedStoredAnswer = context.cacheExchange?.policy.servesStaleOnError == false
                guard attempt < policy.maxAttempts, let failure = Self.failure(error),
                    !(showedStoredAnswer && Self.isUnreachable(failure)),
                    policy.isRetryable(failure),
                    !Task.isCancelled
                else {
                    throw error
                }
                delay = jittered(policy.backoff(afterAttempt: attempt))
            }
            try await sleep(delay)
            attempt += 1
        }
    }

    /// `error` as the policy judges it: a `NetworkError` as it is, a `URLError` as a transport failure;
    /// `nil` (never retried) for anything else.
    static func failure(_ error: any Error) -> NetworkError? {
        if let error = error as? NetworkError { return error }
        if let error = error as? URLError { return .transport(error) }
        return nil
    }

    /// Whether `failure` says the server cannot be reached at all (offline, a refused connection, a
    /// host not found), as opposed to a connection lost or a timeout that one more attempt often mends.
    static func isUnreachable(_ failure: NetworkError) -> Bool {
        guard case .transport(let error) = failure else { return false }
        return FailureKinds.unreachable.contains(error.code)
    }

    private func jittered(_ delay: Duration) -> Duration {
        guard policy.jitter > 0 else { return delay }
        let factor = 1 + policy.jitter * (2 * random() - 1)
        return min(.seconds(seconds: delay.timeInterval * factor), policy.maxDelay)
    }

    /// The server's `Retry-After` (whole seconds or an HTTP date, RFC 9110), capped at the policy's
    /// longest wait; `nil` when absent, not honoured, or not a valid value.
    private func retryAfter(_ response: HTTPURLResponse) -> Duration? {
        guard policy.honoursRetryAfter, let value = response.value(forHTTPHeaderField: "Retry-After"),
            let delay = RetryAfter.delay(from: value, now: Date())
        else { return nil }
        return min(delay, policy.maxDelay)
    }
}
