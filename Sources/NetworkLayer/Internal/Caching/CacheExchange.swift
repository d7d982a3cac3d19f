import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One whole-body request's use of the ``HTTPCache``: its policy, where its answer came from, and the
/// answer waiting to be stored until the endpoint has accepted it (status, `validate`, decoding).
final class CacheExchange: Sendable {
    /// The cache.
    let cache: HTTPCache
    /// The endpoint's policy.
    let policy: CachePolicy
    /// Whether the endpoint accepts a body and response (status check, `validate`, decoding), for an
    /// answer a background revalidation stores with no caller to decode it.
    let accepts: @Sendable (Data, HTTPURLResponse) -> Bool

    private struct State: Sendable {
        var source = ResponseSource.network
        var pending: (key: String, response: CachedHTTPResponse)?
    }

    private let state = Locked(State())

    init(
        cache: HTTPCache, policy: CachePolicy, accepts: @escaping @Sendable (Data, HTTPURLResponse) -> Bool
    ) {
        self.cache = cache
        self.policy = policy
        self.accepts = accepts
    }

    /// Records where the latest attempt's answer came from, and what to store once it is accepted
    /// (`nil`: nothing; an earlier attempt's pending answer is dropped).
    func record(_ source: ResponseSource, storing pending: (key: String, response: CachedHTTPResponse)? = nil)
    {
        let replaced = state.withLock { state in
            defer {
                state.source = source
                state.pending = pending
            }
            return (state.source, state.pending)
        }
        withExtendedLifetime(replaced) {}
    }

    /// Stores the accepted answer, if one waits, and returns where it came from.
    func commit() -> ResponseSource {
        let (source, pending) = state.withLock { state in
            defer { state.pending = nil }
            return (state.source, state.pending)
        }
        if let pending { cache.store.store(pending.response, forKey: pending.key) }
        return source
    }
}
