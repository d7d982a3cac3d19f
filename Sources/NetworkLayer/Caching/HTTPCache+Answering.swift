import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cache's step in the pipeline: between the last middleware and the transport, once per attempt.
/// It acts on a ``CacheDecision``; every rule lives there.
extension HTTPCache {
    /// Answers `request` from the store, the network through `next`, or both, as ``CacheDecision`` says,
    /// recording where the answer came from in `exchange`. A background revalidation
    /// (`stale-while-revalidate`) sends through `refresh`, which records no attempt of this request's.
    func answer(
        _ request: URLRequest, exchange: CacheExchange, next: @escaping NetworkMiddleware.Next,
        refresh: @escaping NetworkMiddleware.Next
    ) async throws -> (Data, HTTPURLResponse) {
        var request = request
        // URLCache (Apple platforms) must never answer in this cache's place.
        request.cachePolicy = .reloadIgnoringLocalCacheData
        let side = CacheRequest(request)
        // The request as the session will send it: its headers and cookies count for Vary and partitions.
        let sent = side.bypasses ? request : exchange.asSent(request)
        guard !side.bypasses, let key = CacheKey(sent, partition: partition?(request)) else {
            let answer = try await next(request)
            invalidate(after: request, answeredBy: answer.1, asSent: exchange.asSent)
            exchange.record(.network)
            return answer
        }
        count { $0.requestCount += 1 }
        let (stored, invalidatedAt) = lookup(key)
        let usable = stored.flatMap {
            CacheDecision.isUsable($0, for: sent, invalidatedAt: invalidatedAt) ? $0 : nil
        }
        let decision = CacheDecision.decide(
            side, sent: sent, stored: usable, checked: true, policy: exchange.policy, now: now(),
            heuristicFraction: heuristicFraction)
        switch decision {
        case .serve(let age, let isFresh):
            let source = ResponseSource.cache(age: .seconds(seconds: age), isFresh: isFresh)
            if let usable, let served = serve(usable, for: request, as: source, exchange, key: key) {
                return served
            }
        case .serveAndRefresh(let age):
            let source = ResponseSource.cache(age: .seconds(seconds: age), isFresh: false)
            if let usable, let served = serve(usable, for: request, as: source, exchange, key: key) {
                refreshInBackground(
                    request, sent: sent, stored: usable, key: key, exchange: exchange, refresh: refresh)
                return served
            }
        case .ask(let validators):
            return try await fetch(
                request, sent: sent, key: key, stored: usable, validators: validators, exchange: exchange,
                next: next)
        case .bypass, .fail:
            throw NetworkError.notCached
        }
        // A stored answer no response could be made of: the network, unless nothing may be sent.
        guard exchange.policy.rule != .onlyIfCached, !side.control.onlyIfCached else {
            throw NetworkError.notCached
        }
        return try await fetch(
            request, sent: sent, key: key, stored: nil, validators: [:], exchange: exchange, next: next)
    }

    /// `stored`, kept under `key`, as the answer to `request`, recorded as `source` (and `storing`
    /// written once accepted); `nil` if no response can be made of it.
    func serve(
        _ stored: CachedHTTPResponse, for request: URLRequest, as source: ResponseSource,
        _ exchange: CacheExchange, key: CacheKey, storing: CacheExchange.PendingWrite? = nil
    ) -> (Data, HTTPURLResponse)? {
        guard let url = request.url, let http = response(for: stored, at: url, key: key, in: exchange) else {
            return nil
        }
        count { $0.hitCount += 1 }
        exchange.record(source, storing: storing, served: key.value)
        return (stored.body, http)
    }

    /// `stored`, stale, after `failure`, if ``CacheDecision/staleAfterError(_:policy:now:heuristicFraction:)``
    /// allows it.
    func serveStale(
        _ stored: CachedHTTPResponse, for request: URLRequest, after failure: NetworkError,
        _ exchange: CacheExchange, key: CacheKey
    ) -> (Data, HTTPURLResponse)? {
        guard
            let age = CacheDecision.staleAfterError(
                stored, policy: exchange.policy, now: now(), heuristicFraction: heuristicFraction)
        else { return nil }
        let source = ResponseSource.staleAfterError(age: .seconds(seconds: age), error: failure)
        return serve(stored, for: request, as: source, exchange, key: key)
    }

    /// The `HTTPURLResponse` of `stored` at `url`: the one made last time for the same version under
    /// `key`, or a new one, kept for next time unless ``removeAll()`` ran since `exchange` began.
    private func response(
        for stored: CachedHTTPResponse, at url: URL, key: CacheKey, in exchange: CacheExchange
    ) -> HTTPURLResponse? {
        if let made = madeResponses.withLock({ $0[key.value] }), made.url == url,
            made.stored.isSameVersion(as: stored)
        {
            return made.response
        }
        guard
            let http = HTTPURLResponse(
                url: url, statusCode: stored.statusCode, httpVersion: "HTTP/1.1", headerFields: stored.headers
            )
        else { return nil }
        let made = MadeResponse(stored: stored.withoutBody, url: url, response: http)
        // Forgotten responses are released after unlocking.
        let released = madeResponses.withLock { responses -> [String: MadeResponse] in
            var released: [String: MadeResponse] = [:]
            guard currentGeneration == exchange.generation else { return released }
            if responses.count >= Self.madeResponseLimit { swap(&released, &responses) }
            released[key.value] = responses.updateValue(made, forKey: key.value)
            return released
        }
        withExtendedLifetime(released) {}
        return http
    }
}
