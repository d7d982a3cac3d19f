import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an unsafe method's success does to stored answers (RFC 9111 section 4.4), in every partition.
extension HTTPCache {
    /// After `request` (as `asSent` shows it) was answered by `http`: invalidates the stored answers of
    /// the URLs ``CacheDecision/invalidated(method:url:status:location:contentLocation:)`` names, in every
    /// partition. The answer of the request's own partition is removed; the others are noted as
    /// invalidated at this moment (a note under ``CacheKey/invalidationKey``), so a later lookup in any
    /// partition finds its answer older than the note and drops it.
    func invalidate(
        after request: URLRequest, answeredBy http: HTTPURLResponse,
        asSent: @Sendable (URLRequest) -> URLRequest
    ) {
        guard let url = request.url else { return }
        let targets = CacheDecision.invalidated(
            method: request.httpMethod ?? "GET", url: url, status: http.statusCode,
            location: http.value(forHTTPHeaderField: "Location"),
            contentLocation: http.value(forHTTPHeaderField: "Content-Location"))
        guard !targets.isEmpty else { return }
        let moment = now()
        let note = CachedHTTPResponse(
            statusCode: 204, headers: [:], body: Data(), requestDate: moment, responseDate: moment)
        for target in targets {
            var get = request
            get.url = target
            get.httpMethod = "GET"
            get.httpBody = nil
            guard let key = CacheKey(asSent(get), partition: partition?(get)) else { continue }
            store.removeResponse(forKey: key.value)
            store.store(note, forKey: key.invalidationKey)
        }
    }

    /// The answer stored under `key`, and when an unsafe method last invalidated its URL (a note is read
    /// only when an answer is stored). An answer the note makes unusable is removed.
    func lookup(_ key: CacheKey) -> (stored: CachedHTTPResponse?, invalidatedAt: Date?) {
        guard let entry = store.response(forKey: key.value) else { return (nil, nil) }
        let noted = store.response(forKey: key.invalidationKey)?.responseDate
        if let noted, entry.responseDate < noted {
            store.removeResponse(forKey: key.value)
        }
        return (entry, noted)
    }
}
