import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the cache does with the server's answer: a `304`, a whole answer, a failure, an unsafe method's
/// success. Pure, like ``CacheDecision`` itself.
extension CacheDecision {
    /// What a `304` to a conditional request does to the answer it validated.
    enum NotModified: Sendable, Equatable {
        /// It names another version (`ETag` or `Last-Modified`): not trusted; ask again for the whole
        /// answer (RFC 9111 section 4.3.4).
        case untrusted
        /// It confirms the stored answer, merged with its fields (section 3.2); `keep` is `false` when it
        /// may be used this once but not kept (the `304` adds `no-store`, or carries a credential value).
        case confirmed(CachedHTTPResponse, keep: Bool)
    }

    /// What `http`, a `304`, does to `validated`, received between `requestDate` and `responseDate`.
    static func afterNotModified(
        _ http: HTTPURLResponse, validated: CachedHTTPResponse, requestDate: Date, responseDate: Date
    ) -> NotModified {
        guard confirms(http, validated) else { return .untrusted }
        let (updated, keep) = validated.revalidated(
            by: http, requestDate: requestDate, responseDate: responseDate)
        return .confirmed(updated, keep: keep)
    }

    /// Whether a `304` is about `stored` (RFC 9111 section 4.3.4): each validator it names is the stored
    /// one's, an `ETag` exactly and a `Last-Modified` as the same date. A `304` naming none confirms the
    /// answer this cache asked about: one answer is kept per key, and the request carried its validators
    /// (the RFC would select none; OkHttp, too, takes such a `304`, and servers send them). A `304` whose
    /// `ETag` matches but whose `Last-Modified` does not is refused: stricter than the RFC, never wrong.
    static func confirms(_ http: HTTPURLResponse, _ stored: CachedHTTPResponse) -> Bool {
        let tag = http.value(forHTTPHeaderField: "ETag")
        let modified = http.value(forHTTPHeaderField: "Last-Modified")
        guard tag != nil || modified != nil else { return true }
        if let tag, tag != stored.header("etag") { return false }
        if let modified {
            guard let kept = stored.header("last-modified") else { return tag != nil }
            guard modified != kept else { return true }
            let dates = (HTTPDate.parse(modified), HTTPDate.parse(kept))
            guard let new = dates.0, let old = dates.1, new == old else { return false }
        }
        return true
    }

    /// What a whole answer (not a `304`) does to the store.
    enum Answer: Sendable, Equatable {
        /// Keep it, once the endpoint accepts it.
        case store(CachedHTTPResponse)
        /// Keep nothing, and remove what is stored: a new version that may not be kept must not leave
        /// the old one to be served after it.
        case removeStored
        /// Keep nothing, and leave what is stored (an error status, an answer a redirect led to).
        case leave
    }

    /// What `http` and `body`, the answer to `request` (sent as `sent`), does to the store.
    static func afterAnswer(
        _ http: HTTPURLResponse, body: Data, request: URLRequest, sent: URLRequest, requestDate: Date,
        responseDate: Date
    ) -> Answer {
        let itself = answersItself(http, request)
        if itself,
            let entry = CachedHTTPResponse(
                storing: http, body: body, for: sent, requestDate: requestDate, responseDate: responseDate)
        {
            return .store(entry)
        }
        if CacheControl(http.value(forHTTPHeaderField: "Cache-Control")).noStore
            || ((200..<300).contains(http.statusCode) && itself)
        {
            return .removeStored
        }
        return .leave
    }

    /// Whether `http` is the answer of `request`'s own URL: not one a session followed a redirect to,
    /// which belongs under another key (a response without a URL counts as the request's). URLs are
    /// compared as a session may rewrite them without a redirect: scheme and host in any case, a default
    /// port written or not, an empty path as `/`, without a fragment.
    static func answersItself(_ http: HTTPURLResponse, _ request: URLRequest) -> Bool {
        guard let answered = http.url, let asked = request.url else { return true }
        guard answered.absoluteString != asked.absoluteString else { return true }
        func path(_ url: URL) -> String {
            let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
            return path.isEmpty ? "/" : path
        }
        return sameOrigin(answered, asked) && path(answered) == path(asked) && answered.query == asked.query
    }

    /// The age of `stored` if it may stand in for a failure now: the response's `stale-if-error`, or the
    /// policy's accepted staleness, allows it, and nothing forbids stale use; `nil` otherwise.
    static func staleAfterError(
        _ stored: CachedHTTPResponse, policy: CachePolicy, now: Date, heuristicFraction: Double
    ) -> Double? {
        guard policy.servesStaleOnError else { return nil }
        let freshness = Freshness(
            of: stored, at: now, heuristicFraction: heuristicFraction,
            assumed: policy.assumedLifetime?.timeInterval)
        let accepted = policy.maximumStalenessOnError.map(\.timeInterval)
        return freshness.allowsStaleAfterError(accepting: accepted) ? freshness.age : nil
    }

    /// Methods whose success leaves stored answers as they are; every other method invalidates.
    static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE"]

    /// The URLs whose stored answers a request with `method` to `url`, answered `status` with
    /// `location` and `contentLocation`, invalidates (RFC 9111 section 4.4): none for a safe method or a
    /// status of 400 or more; else the URL, and the same-origin URLs those fields name.
    static func invalidated(
        method: String, url: URL, status: Int, location: String?, contentLocation: String?
    ) -> [URL] {
        guard !safeMethods.contains(method.uppercased()), (200..<400).contains(status) else { return [] }
        var targets = [url]
        for value in [location, contentLocation] {
            guard let value, let target = URL(string: value, relativeTo: url)?.absoluteURL,
                sameOrigin(target, url)
            else { continue }
            targets.append(target)
        }
        return targets
    }

    /// Whether two URLs share scheme, host and port (a scheme's default port written or not).
    static func sameOrigin(_ first: URL, _ second: URL) -> Bool {
        first.scheme?.lowercased() == second.scheme?.lowercased()
            && first.host?.lowercased() == second.host?.lowercased() && port(of: first) == port(of: second)
    }

    /// `url`'s port, or its scheme's default one.
    private static func port(of url: URL) -> Int? {
        url.port ?? ["http": 80, "https": 443][url.scheme?.lowercased() ?? ""]
    }

    /// `error` as the failure a stale answer may stand in for: a transport error or a timeout; `nil`
    /// for cancellation and everything else.
    static func staleWorthy(_ error: any Error) -> NetworkError? {
        switch error {
        case let error as URLError where error.code != .cancelled: .transport(error)
        case let error as NetworkError:
            switch error {
            case .transport(let underlying) where underlying.code != .cancelled: error
            case .timedOut: error
            default: nil
            }
        default: nil
        }
    }
}
