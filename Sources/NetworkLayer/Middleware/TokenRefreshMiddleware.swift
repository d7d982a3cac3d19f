import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Refreshes credentials once when a request is refused with 401, then retries the request once.
///
/// Concurrent 401s share one refresh: the first starts it, the others wait for it, and every request
/// then retries once. A 401 for a request sent before a refresh that has since finished retries without
/// refreshing again. Place it before (outside) the ``AuthorizationMiddleware`` so the retry carries the
/// new token.
///
/// Refreshes are bounded: a request refreshes at most once and retries at most once, and a request the
/// refresh closure itself sends through the same provider (from its own task or a child or unstructured
/// task it starts; a task-local value marks them, which `Task.detached` does not inherit) is passed
/// through untouched, so a refresh refused with 401 fails the refresh instead of waiting for itself.
///
/// One refresh per process, by default. An app and its extensions that share a rotating refresh token
/// make it one per app group with ``init(statusCodes:sharedAcross:refresh:)``: a process that meets a
/// 401 while another refreshes waits for it, then retries with the token the other stored.
public final class TokenRefreshMiddleware: NetworkMiddleware {
    /// The middlewares whose refresh the current task is running.
    @TaskLocal private static var refreshesInProgress: Set<ObjectIdentifier> = []

    private struct State: Sendable {
        var generation = 0
        var refreshing: Task<Void, any Error>?
        /// Across processes: the newest "refreshed at" count read before sending by the requests the
        /// running refresh answers (`nil` when one of them could not read it), and the newest send.
        var sharedSentAt: (count: UInt64?, date: Date) = (0, .distantPast)
    }

    private let statusCodes: Set<Int>
    private let refresh: @Sendable () async throws -> Void
    private let shared: SharedRefresh?
    private let state = Locked(State())

    /// Creates the middleware.
    /// - Parameters:
    ///   - statusCodes: The statuses that trigger a refresh; `[401]` by default.
    ///   - refresh: Obtains new credentials (and stores them where the token provider reads them).
    public init(statusCodes: Set<Int> = [401], refresh: @escaping @Sendable () async throws -> Void) {
        self.statusCodes = statusCodes
        self.refresh = refresh
        self.shared = nil
    }

    /// Creates the middleware for an app and its extensions: one refresh among all the processes that
    /// coordinate through `shared`. A process whose request was refused after another process's refresh
    /// began waits for it and retries with the stored token instead of refreshing again.
    /// - Parameters:
    ///   - statusCodes: The statuses that trigger a refresh; `[401]` by default.
    ///   - shared: The coordination every process of the app group uses, in a folder they all reach.
    ///   - refresh: Obtains new credentials and stores them where every process's token provider reads
    ///     them (a keychain access group on Apple platforms).
    public init(
        statusCodes: Set<Int> = [401], sharedAcross shared: SharedRefresh,
        refresh: @escaping @Sendable () async throws -> Void
    ) {
        self.statusCodes = statusCodes
        self.refresh = refresh
        self.shared = shared
    }

    /// How many refreshes have completed in this process; shared across processes, that counts each
    /// wait that found another process's refresh finished too (``SharedRefresh/refreshCount`` counts the
    /// refreshes themselves).
    public var refreshCount: Int {
        state.withLock { $0.generation }
    }

    /// Sends the request; on a refusal, refreshes (once for all concurrent refusals) and retries once.
    /// A request sent by this middleware's own refresh is passed on untouched.
    /// - Throws: The refresh's error, when the refresh fails.
    public func intercept(
        _ request: URLRequest, context: RequestContext, next: Next
    ) async throws -> (Data, HTTPURLResponse) {
        guard !Self.refreshesInProgress.contains(ObjectIdentifier(self)) else {
            return try await next(request)
        }
        let sentAt = state.withLock { $0.generation }
        // Read before sending: a refresh by another process that finishes after this is newer than the
        // token this request carries.
        let sharedSentAt: (count: UInt64?, date: Date) =
            shared.map { ($0.countBeforeSending(), Date()) } ?? (0, .distantPast)
        let (data, response) = try await next(request)
        guard statusCodes.contains(response.statusCode) else { return (data, response) }
        try await refreshIfNeeded(sentAt: sentAt, sharedSentAt: sharedSentAt)
        return try await next(request)
    }

    private func refreshIfNeeded(sentAt generation: Int, sharedSentAt: (count: UInt64?, date: Date))
        async throws
    {
        let refresh: @Sendable () async throws -> Void
        if let sharedRefresh = shared {
            // Asked once the other processes' lock is held: the newest request this refresh answers.
            refresh = { [refresh = self.refresh, state] in
                _ = try await sharedRefresh.refreshOnce(
                    sentAt: { state.withLock { $0.sharedSentAt } }, running: refresh)
            }
        } else {
            refresh = self.refresh
        }
        let shared = state
        let task = shared.withLock { state -> Task<Void, any Error>? in
            if state.generation > generation { return nil }
            if let running = state.refreshing {
                // A request sent after the one that began this refresh joins it with its own count.
                if let known = state.sharedSentAt.count, let sent = sharedSentAt.count {
                    state.sharedSentAt.count = max(known, sent)
                } else {
                    state.sharedSentAt.count = nil
                }
                state.sharedSentAt.date = max(state.sharedSentAt.date, sharedSentAt.date)
                return running
            }
            state.sharedSentAt = sharedSentAt
            let refreshing = Self.refreshesInProgress.union([ObjectIdentifier(self)])
            let task = Task { [refresh] in
                // The task handle leaves the state under the lock and is released after unlocking.
                do {
                    try await Self.$refreshesInProgress.withValue(refreshing) { try await refresh() }
                    let finished = shared.withLock { state in
                        defer { state.refreshing = nil }
                        state.generation += 1
                        return state.refreshing
                    }
                    withExtendedLifetime(finished) {}
                } catch {
                    let finished = shared.withLock { state in
                        defer { state.refreshing = nil }
                        return state.refreshing
                    }
                    withExtendedLifetime(finished) {}
                    throw error
                }
            }
            state.refreshing = task
            return task
        }
        if let task { try await Self.wait(for: task) }
    }

    /// Waits for `refresh`, leaving at once with `CancellationError` when the caller is cancelled; the
    /// refresh goes on for the other callers.
    private static func wait(for refresh: Task<Void, any Error>) async throws {
        try await Timeout.untimed { finish in
            Task { finish(await refresh.result) }
            return { finish(.failure(CancellationError())) }
        }
    }
}
