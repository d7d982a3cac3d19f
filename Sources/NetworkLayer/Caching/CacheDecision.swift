import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the HTTP cache does with one request before anything is sent: one value, decided from the
/// request as the session will send it, the stored answer, the endpoint's policy and the time, as
/// OkHttp's `CacheStrategy` does. Nothing here reads a store or a clock: `HTTPCache+Answering.swift` and
/// `HTTPCache+Fetching.swift` act on it. What to do with the server's answer is decided the same way
/// (`CacheDecision+Answers.swift`).
enum CacheDecision: Sendable, Equatable {
    /// Not the cache's business (a method other than `GET`, the request's `no-store`, the caller's own
    /// validators or range): sent as it is.
    case bypass
    /// The stored answer, without a request, `age` seconds old; fresh or not (a policy or the request's
    /// `max-stale` may take a stale one).
    case serve(age: Double, isFresh: Bool)
    /// The stored answer, stale, while a conditional request refreshes it in the background
    /// (`stale-while-revalidate`).
    case serveAndRefresh(age: Double)
    /// The network, with these validators (`If-None-Match`, `If-Modified-Since`; none for an answer
    /// without them, or when the policy reloads).
    case ask(validators: [String: String])
    /// Neither: the request or the policy forbids the network and nothing stored fits (a `504`,
    /// ``NetworkError/notCached``).
    case fail

    /// The longest `ETag` sent back as a validator; a longer one is not used.
    static let longestValidator = 1024

    /// The decision for `request` (its side, read once), sent as `sent`, with `stored` under its
    /// key (noted `invalidatedAt` by an unsafe method, if ever), under `policy`, at `now`.
    /// `checked` says `stored` was already found usable (``isUsable(_:for:invalidatedAt:)``), so its
    /// `Vary` values are not compared twice; `fields` are its ``FreshnessFields`` when already read.
    static func decide(
        _ request: CacheRequest, sent: URLRequest, stored: CachedHTTPResponse?,
        fields: FreshnessFields? = nil,
        invalidatedAt: Date? = nil, checked: Bool = false, policy: CachePolicy, now: Date,
        heuristicFraction: Double
    ) -> CacheDecision {
        guard !request.bypasses else { return .bypass }
        let usable = stored.flatMap { entry in
            checked || isUsable(entry, for: sent, invalidatedAt: invalidatedAt) ? entry : nil
        }
        let control = request.control
        var rule = policy.rule
        if control.noCache, rule == .useProtocol { rule = .revalidate }
        let anyAge = rule == .onlyIfCached || rule == .returnCacheElseLoad
        guard let usable else {
            return control.onlyIfCached || rule == .onlyIfCached ? .fail : .ask(validators: [:])
        }
        let freshness = Freshness(
            of: usable, fields: fields, at: now, heuristicFraction: heuristicFraction,
            assumed: policy.assumedLifetime?.timeInterval)
        if control.onlyIfCached {
            // RFC 9111 section 5.2.1.7: a stored answer the request accepts, else a 504; never the
            // network.
            return anyAge || satisfies(control, freshness)
                ? .serve(age: freshness.age, isFresh: freshness.isFresh) : .fail
        }
        if anyAge { return .serve(age: freshness.age, isFresh: freshness.isFresh) }
        if rule == .useProtocol {
            if satisfies(control, freshness) { return .serve(age: freshness.age, isFresh: freshness.isFresh) }
            if policy.refreshesStaleInBackground, freshness.allowsStaleWhileRevalidating,
                control.maxAge == nil,
                control.minFresh == nil
            {
                return .serveAndRefresh(age: freshness.age)
            }
        }
        return .ask(validators: rule == .reload ? [:] : validators(of: usable))
    }

    /// Whether `stored` may answer `sent` at all: its `Vary` values are the request's (RFC 9111 section
    /// 4.1), and no unsafe method changed its URL after it was stored (section 4.4).
    static func isUsable(_ stored: CachedHTTPResponse, for sent: URLRequest, invalidatedAt: Date?) -> Bool {
        if let invalidatedAt, stored.responseDate < invalidatedAt { return false }
        return stored.variants.isEmpty
            || stored.variants == CacheKey.variants(named: Array(stored.variants.keys), in: sent)
    }

    /// The validators of `stored`: `If-None-Match` for an `ETag` of at most ``longestValidator`` bytes,
    /// `If-Modified-Since` for a `Last-Modified` that is a date (RFC 9111 section 4.3.1).
    static func validators(of stored: CachedHTTPResponse) -> [String: String] {
        var validators: [String: String] = [:]
        if let tag = stored.header("etag"), tag.utf8.count <= longestValidator {
            validators["If-None-Match"] = tag
        }
        if let modified = stored.header("last-modified"), HTTPDate.parse(modified) != nil {
            validators["If-Modified-Since"] = modified
        }
        return validators
    }

    /// Whether the stored answer may be used without asking: fresh, or stale within the request's own
    /// `max-stale` (unless the response forbids stale use), and within its `max-age` and `min-fresh`
    /// (RFC 9111 sections 4.2 and 5.2.1).
    static func satisfies(_ control: CacheControl, _ freshness: Freshness) -> Bool {
        let acceptedStale = control.maxStale.map {
            !freshness.forbidsStaleUse && freshness.staleness <= Double($0)
        }
        guard freshness.isFresh || acceptedStale == true else { return false }
        if let maxAge = control.maxAge, freshness.age > Double(maxAge) { return false }
        if let minFresh = control.minFresh, freshness.lifetime - freshness.age < Double(minFresh) {
            return false
        }
        return true
    }
}

/// The request's side of a ``CacheDecision``, read once: its method, its `Cache-Control` (or a
/// `Pragma: no-cache` without one), and whether it carries conditions of its own.
struct CacheRequest: Sendable {
    /// The method, uppercased.
    let method: String
    /// The request's `Cache-Control` (RFC 9111 section 5.2.1); without one, `Pragma: no-cache` reads as
    /// `no-cache` (section 5.4).
    let control: CacheControl
    /// Whether the caller set validators or a range of its own: then its `304` or `206` is its own
    /// business, and the cache stays out.
    let hasOwnConditions: Bool

    /// The request side of `request`.
    init(_ request: URLRequest) {
        method = request.httpMethod?.uppercased() ?? "GET"
        var fields: [String: String] = [:]
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            fields[CacheControl.lowercasedToken(Substring(name))] = value
        }
        if let field = fields["cache-control"] {
            control = CacheControl(field)
        } else {
            var control = CacheControl(nil)
            if let pragma = fields["pragma"],
                CacheControl.directives(in: pragma).contains(where: { $0.name == "no-cache" })
            {
                control.noCache = true
            }
            self.control = control
        }
        hasOwnConditions =
            !fields.isEmpty
            && ["if-none-match", "if-modified-since", "if-match", "if-unmodified-since", "if-range", "range"]
                .contains { fields[$0] != nil }
    }

    /// Whether the cache stays out: not a `GET`, the request's `no-store`, or conditions of its own.
    var bypasses: Bool { method != "GET" || control.noStore || hasOwnConditions }
}
