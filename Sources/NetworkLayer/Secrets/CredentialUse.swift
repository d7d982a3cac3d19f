import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The secret values one request's attempts carry, kept in use (never pushed out of the store by newer
/// values) until the request ends: an `Authorization` token a server echoes in its `401` is hidden in
/// that error however many requests ran meanwhile. Released when the provider reports the request's end,
/// or at the latest when the request's context is gone.
final class CredentialUse: Sendable {
    private let store: CredentialStore
    private let values = Locked<[String]>([])

    init(store: CredentialStore = .shared) {
        self.store = store
    }

    /// Learns the secret values `request` carries (``CredentialStore/use(_:)``) and holds them.
    func hold(_ request: URLRequest) {
        let used = store.use(request)
        guard !used.isEmpty else { return }
        values.withLock { $0 += used }
    }

    /// Releases every value held: the request has ended.
    func end() {
        store.release(
            values.withLock { values in
                defer { values = [] }
                return values
            })
    }

    deinit {
        end()
    }
}
