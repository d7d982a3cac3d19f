/// How one request uses the provider's ``HTTPCache``: set it on an endpoint
/// (``Endpoint/cachePolicy``). Without an `HTTPCache` in the provider's configuration it changes nothing.
///
/// ```swift
/// var films = GitHubAPI.repositories(of: "apple")
/// films.cachePolicy = .useProtocol.acceptingStaleOnError(upTo: .seconds(7 * 86_400))
/// ```
public struct CachePolicy: Sendable, Hashable {
    /// Where an answer may come from.
    public enum Rule: Sendable, Hashable {
        /// The HTTP rules (RFC 9111): a fresh stored answer without a request, a stale one revalidated
        /// with its validators, `stale-while-revalidate` and `stale-if-error` honoured.
        case useProtocol
        /// Always ask the server, with the stored answer's validators, so an unchanged resource costs a
        /// `304` (OkHttp's `noCache`, URLCache's `reloadRevalidatingCacheData`).
        case revalidate
        /// Ask the server without validators, ignoring what is stored; the answer is stored.
        case reload
        /// A stored answer whatever its age; the network only when none is stored.
        case returnCacheElseLoad
        /// A stored answer whatever its age; never the network. Without one the request fails with
        /// ``NetworkError/notCached``.
        case onlyIfCached
    }

    /// Where an answer may come from.
    public var rule: Rule
    /// How stale a stored answer the app accepts when the network fails (a transport error, a
    /// timeout, or a `500`, `502`, `503` or `504`), on top of what the response's own `stale-if-error`
    /// allows; `nil` (the default) for only that. Such an answer's ``NetworkResponse/source`` is
    /// ``ResponseSource/staleAfterError(age:error:)``. A response marked `must-revalidate` or `no-cache`
    /// is never answered stale.
    public var maximumStalenessOnError: Duration?
    /// How long an answer that says nothing of its freshness stays fresh: one with no `max-age`, no
    /// `Expires`, no `Last-Modified` to guess from, and no `no-cache` (many image hosts send none of
    /// them). `nil` (the default) for RFC 9111's rule: such an answer is stale at once, and asked for
    /// again (conditionally, when it has an `ETag`). Set it on endpoints whose answers rarely change
    /// (images, as Kingfisher and Nuke keep them whatever the headers say); it is read when the answer
    /// is used, so it is the endpoint's current policy that counts.
    public var assumedLifetime: Duration?
    /// Whether a stale answer `stale-while-revalidate` allows is returned at once while it is refreshed
    /// in the background (`true`, the default), or revalidated before it is returned (`false`: see
    /// ``refreshingInForeground()``).
    public var refreshesStaleInBackground = true
    /// Whether a stale answer may stand in for a failure at all (`false` for the network step of
    /// ``NetworkProvider/responses(for:)``, which has yielded the stored answer already).
    var servesStaleOnError = true

    /// Creates a policy.
    /// - Parameters:
    ///   - rule: Where an answer may come from.
    ///   - maximumStalenessOnError: The staleness accepted when the network fails; `nil` by default.
    public init(rule: Rule, maximumStalenessOnError: Duration? = nil) {
        self.rule = rule
        self.maximumStalenessOnError = maximumStalenessOnError
    }

    /// The HTTP rules; the default.
    public static let useProtocol = CachePolicy(rule: .useProtocol)
    /// Always revalidate with the server.
    public static let revalidate = CachePolicy(rule: .revalidate)
    /// Ignore what is stored; store the answer.
    public static let reload = CachePolicy(rule: .reload)
    /// A stored answer of any age, else the network.
    public static let returnCacheElseLoad = CachePolicy(rule: .returnCacheElseLoad)
    /// A stored answer of any age, never the network.
    public static let onlyIfCached = CachePolicy(rule: .onlyIfCached)

    /// This policy, keeping answers that say nothing of their freshness fresh for `lifetime`.
    /// - Parameter lifetime: How long; a negative duration counts as zero.
    /// - Returns: The policy with ``assumedLifetime`` set.
    public func assumingLifetime(_ lifetime: Duration) -> CachePolicy {
        var policy = self
        policy.assumedLifetime = max(lifetime, .zero)
        return policy
    }

    /// This policy, revalidating before it is returned a stale answer that `stale-while-revalidate`
    /// would return at once and refresh in the background: for a process that may end before a
    /// background refresh runs (a command-line tool, an app extension), where it would return the same
    /// stale answer on every run.
    /// - Returns: The policy with ``refreshesStaleInBackground`` off.
    public func refreshingInForeground() -> CachePolicy {
        var policy = self
        policy.refreshesStaleInBackground = false
        return policy
    }

    /// This policy, accepting a stored answer up to `staleness` past its freshness when the network
    /// fails.
    /// - Parameter staleness: How stale, at most; a negative duration counts as zero.
    /// - Returns: The policy with ``maximumStalenessOnError`` set.
    public func acceptingStaleOnError(upTo staleness: Duration) -> CachePolicy {
        var policy = self
        policy.maximumStalenessOnError = max(staleness, .zero)
        return policy
    }
}
