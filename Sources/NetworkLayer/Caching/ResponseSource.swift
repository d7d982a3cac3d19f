/// Where a response came from: the network, or an ``HTTPCache``, and how old a stored answer is, so a
/// view can say "offline, 3 hours old".
public enum ResponseSource: Sendable, CustomStringConvertible {
    /// The server answered in full.
    case network
    /// A stored answer, used without a request: fresh, or of any age under
    /// ``CachePolicy/Rule/returnCacheElseLoad``, ``CachePolicy/Rule/onlyIfCached`` or while
    /// `stale-while-revalidate` refreshes it in the background.
    case cache(age: Duration, isFresh: Bool)
    /// A stored answer the server confirmed with `304 Not Modified`; the response reads as the stored
    /// status (a `200`), with the `304`'s headers merged in.
    case revalidated
    /// A stale stored answer, because the network failed with `error` (offline, a timeout, a `503`).
    case staleAfterError(age: Duration, error: NetworkError)

    /// The stored answer's age, for an answer that was not confirmed by the server just now.
    public var age: Duration? {
        switch self {
        case .cache(let age, _), .staleAfterError(let age, _): age
        case .network, .revalidated: nil
        }
    }

    /// Whether the body came from the store (``cache(age:isFresh:)``, ``revalidated`` or
    /// ``staleAfterError(age:error:)``).
    public var isFromCache: Bool {
        if case .network = self { return false }
        return true
    }

    /// Whether the answer may be out of date: a stale stored answer nobody confirmed.
    public var isStale: Bool {
        switch self {
        case .cache(_, let isFresh): !isFresh
        case .staleAfterError: true
        case .network, .revalidated: false
        }
    }

    /// One line for a log: "network", "cache (fresh, 12 s old)", "revalidated (304)", or "stale
    /// (3600 s old) after: <error>".
    public var description: String {
        switch self {
        case .network: "network"
        case .cache(let age, let isFresh):
            "cache (\(isFresh ? "fresh" : "stale"), \(age.wholeSeconds) s old)"
        case .revalidated: "revalidated (304)"
        case .staleAfterError(let age, let error): "stale (\(age.wholeSeconds) s old) after: \(error)"
        }
    }
}
