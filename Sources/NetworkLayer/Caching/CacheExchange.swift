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
    /// The request as the transport will send it (``Transport/asSent(_:)``).
    let asSent: @Sendable (URLRequest) -> URLRequest
    /// The cache's generation when the request began: nothing is stored if ``HTTPCache/removeAll()`` ran
    /// since.
    let generation: Int

    /// An answer waiting to be stored once the endpoint accepts it: `replacing`, when given, is the
    /// stored answer a `304` confirmed, and the write happens only if it is still the one stored.
    struct PendingWrite: Sendable {
        let key: String
        let response: CachedHTTPResponse
        var replacing: CachedHTTPResponse? = nil
    }

    private struct State: Sendable {
        var source = ResponseSource.network
        var pending: PendingWrite?
        /// The key of the stored answer the latest attempt was answered with.
        var served: String?
    }

    private let state = Locked(State())

    /// An exchange that began in `generation` (the cache's current one when `nil`).
    init(
        cache: HTTPCache, policy: CachePolicy, asSent: @escaping @Sendable (URLRequest) -> URLRequest,
        generation: Int? = nil, accepts: @escaping @Sendable (Data, HTTPURLResponse) -> Bool
    ) {
        self.cache = cache
        self.policy = policy
        self.asSent = asSent
        self.accepts = accepts
        self.generation = generation ?? cache.currentGeneration
    }

    /// Records where the latest attempt's answer came from (the stored answer under `served`, when it is
    /// one), and what to store once it is accepted (`nil`: nothing; an earlier attempt's pending answer
    /// is dropped).
    func record(
        _ source: ResponseSource, storing pending: PendingWrite? = nil,
        served: String? = nil
    ) {
        let replaced = state.withLock { state in
            defer {
                state.source = source
                state.pending = pending
                state.served = served
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
        if let pending {
            cache.store(
                pending.response, forKey: pending.key, startedIn: generation, replacing: pending.replacing)
        }
        return source
    }

    /// After the endpoint refused the answer (status, `validate`, decoding): removes the stored answer it
    /// came from, if it came from the store, so a stored answer the app can no longer read is not served
    /// again, and returns where it came from; `nil` for the network's answer.
    func refused() -> ResponseSource? {
        let (source, served) = state.withLock { state in
            defer { state.pending = nil }
            return (state.source, state.served)
        }
        guard let served else { return nil }
        cache.store.removeResponse(forKey: served)
        return source
    }
}
