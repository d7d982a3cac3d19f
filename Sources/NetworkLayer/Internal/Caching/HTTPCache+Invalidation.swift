import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an unsafe method's success does to stored answers (RFC 9111 section 4.4), in every partition.
extension HTTPCache {
    /// Methods whose success leaves stored answers as they are; every other method invalidates.
    static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE"]

    /// After `request` (sent with any method but a safe one, as `asSent` shows it) was answered by `http`
    /// with a status below 400: invalidates the stored answers of its URL, and of the same-origin URLs
    /// its `Location` and `Content-Location` name, in every partition. The answer of the request's own
    /// partition is removed; the others are noted as invalidated at this moment (a marker under
    /// ``CacheKey/invalidationKey``), so a later lookup in any partition finds its answer older than the
    /// marker and drops it.
    func invalidate(
        after request: URLRequest, answeredBy http: HTTPURLResponse,
        asSent: @Sendable (URLRequest) -> URLRequest
    ) {
        let method = request.httpMethod?.uppercased() ?? "GET"
        guard !Self.safeMethods.contains(method), (200..<400).contains(http.statusCode), let url = request.url
        else { return }
        var targets = [url]
        for name in ["Location", "Content-Location"] {
            guard let value = http.value(forHTTPHeaderField: name),
                let target = URL(string: value, relativeTo: url)?.absoluteURL, Self.sameOrigin(target, url)
            else { continue }
            targets.append(target)
        }
        let moment = now()
        let marker = CachedHTTPResponse(
            statusCode: 204, headers: [:], body: Data(), requestDate: moment, responseDate: moment)
        for target in targets {
            var get = request
            get.url = target
            get.httpMethod = "GET"
            get.httpBody = nil
            guard let key = CacheKey(asSent(get), partition: partition?(get)) else { continue }
            store.removeResponse(forKey: key.value)
            store.store(marker, forKey: key.invalidationKey)
        }
    }

    /// The answer stored under `key`, unless an unsafe method invalidated its URL after it was stored
    /// (then it is removed, and `nil`).
    func storedAnswer(for key: CacheKey) -> CachedHTTPResponse? {
        guard let entry = store.response(forKey: key.value) else { return nil }
        if let marker = store.response(forKey: key.invalidationKey), entry.responseDate < marker.responseDate
        {
            store.removeResponse(forKey: key.value)
            return nil
        }
        return entry
    }

    /// Whether two URLs share scheme, host and port (a scheme's default port written or not).
    static func sameOrigin(_ first: URL, _ second: URL) -> Bool {
        first.scheme?.lowercased() == second.scheme?.lowercased()
            && first.host?.lowercased() == second.host?.lowercased() && port(of: first) == port(of: second)
    }

    /// `url`'s port, or its scheme's default one.
    static func port(of url: URL) -> Int? {
        url.port ?? ["http": 80, "https": 443][url.scheme?.lowercased() ?? ""]
    }
}
