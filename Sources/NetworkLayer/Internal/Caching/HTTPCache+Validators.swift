import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The rules the cache's step applies to one request and one answer: validators, what a `304` confirms,
/// which answer belongs to which URL, and which failures a stale answer may stand in for.
extension HTTPCache {
    /// The longest `ETag` sent back as a validator; a longer one is not used.
    static let longestValidator = 1024

    /// The request's `Cache-Control` (fields by lowercase name); without one, a `Pragma: no-cache`
    /// reads as `no-cache` (RFC 9111 section 5.4).
    static func requestControl(_ fields: [String: String]) -> CacheControl {
        if let field = fields["cache-control"] { return CacheControl(field) }
        var control = CacheControl(nil)
        if let pragma = fields["pragma"],
            CacheControl.directives(in: pragma).contains(where: { $0.name == "no-cache" })
        {
            control.noCache = true
        }
        return control
    }

    /// `request` with `stored`'s validators: `If-None-Match` for an `ETag` (at most
    /// ``longestValidator`` bytes), `If-Modified-Since` for a `Last-Modified` that is a date.
    static func conditional(_ request: URLRequest, on stored: CachedHTTPResponse) -> URLRequest {
        var request = request
        if let tag = stored.header("etag"), tag.utf8.count <= longestValidator {
            request.setValue(tag, forHTTPHeaderField: "If-None-Match")
        }
        if let modified = stored.header("last-modified"), RetryAfter.httpDate(from: modified) != nil {
            request.setValue(modified, forHTTPHeaderField: "If-Modified-Since")
        }
        return request
    }

    /// Whether `request` carries the validators ``conditional(_:on:)`` adds.
    static func carriesValidators(_ request: URLRequest) -> Bool {
        request.value(forHTTPHeaderField: "If-None-Match") != nil
            || request.value(forHTTPHeaderField: "If-Modified-Since") != nil
    }

    /// Whether a `304` is about `stored` (RFC 9111 section 4.3.4): each validator it names is the stored
    /// one's, an `ETag` exactly and a `Last-Modified` as the same date (when both have one).
    static func confirms(_ http: HTTPURLResponse, _ stored: CachedHTTPResponse) -> Bool {
        if let tag = http.value(forHTTPHeaderField: "ETag"), tag != stored.header("etag") { return false }
        if let modified = http.value(forHTTPHeaderField: "Last-Modified"),
            let kept = stored.header("last-modified"), modified != kept
        {
            let dates = (RetryAfter.httpDate(from: modified), RetryAfter.httpDate(from: kept))
            guard let new = dates.0, let old = dates.1, new == old else { return false }
        }
        return true
    }

    /// Whether `http` is the answer of `request`'s own URL: not one a session followed a redirect to,
    /// which belongs under another key (a response without a URL counts as the request's).
    /// URLs are compared as a session may rewrite them without a redirect: scheme and host in any case,
    /// a default port written or not, an empty path as `/`, without a fragment.
    static func answersItself(_ http: HTTPURLResponse, _ request: URLRequest) -> Bool {
        guard let answered = http.url, let asked = request.url else { return true }
        guard answered.absoluteString != asked.absoluteString else { return true }
        func path(_ url: URL) -> String {
            let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
            return path.isEmpty ? "/" : path
        }
        return sameOrigin(answered, asked) && path(answered) == path(asked) && answered.query == asked.query
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
