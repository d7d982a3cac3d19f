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
        let side = CacheRequest(request)
        // The request as the session will send it: its headers and cookies count for Vary and partitions.
        let sent = side.bypasses ? request : exchange.asSent(request)
        guard !side.bypasses,
            let key = CacheKey(
                sent, partition: partition?(request), memo: keys, generation: exchange.generation)
        else {
            let request = Self.uncached(request)
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
        let read = usable.map { reading(of: $0, key: key) }
        let decision = CacheDecision.decide(
            side, sent: sent, stored: usable, fields: read?.fields, checked: true, policy: exchange.policy,
            now: now(), heuristicFraction: heuristicFraction)
        switch decision {
        case .serve(let age, let isFresh):
            let source = ResponseSource.cache(age: .seconds(seconds: age), isFresh: isFresh)
            if let usable,
                let served = serve(usable, for: request, as: source, exchange, key: key, reading: read)
            {
                return served
            }
        case .serveAndRefresh(let age):
            let source = ResponseSource.cache(age: .seconds(seconds: age), isFresh: false)
            if let usable,
                let served = serve(usable, for: request, as: source, exchange, key: key, reading: read)
            {
                refreshInBackground(
                    Self.uncached(request), sent: sent, stored: usable, key: key, exchange: exchange,
                    refresh: refresh)
                return served
            }
        case .ask(let validators):
            return try await fetch(
                Self.uncached(request), sent: sent, key: key, stored: usable, validators: validators,
                exchange: exchange, next: next)
        case .bypass, .fail:
            throw NetworkError.notCached
        }
        // A stored answer no response could be made of: the network, unless nothing may be sent.
        guard exchange.policy.rule != .onlyIfCached, !side.control.onlyIfCached else {
            throw NetworkError.notCached
        }
        return try await fetch(
            Self.uncached(request), sent: sent, key: key, stored: nil, validators: [:], exchange: exchange,
            next: next)
    }

    /// `request` as it goes to the network: URLCache (Apple platforms) must never answer in this cache's
    /// place. Set only on the way out, since setting it copies the request (about 7,000 instructions on
    /// Linux), which a fresh hit need not pay.
    static func uncached(_ request: URLRequest) -> URLRequest {
        guard request.cachePolicy != .reloadIgnoringLocalCacheData else { return request }
        var request = request
        request.cachePolicy = .reloadIgnoringLocalCacheData
        return request
    }

    /// `stored`, kept under `key`, as the answer to `request`, recorded as `source` (and `storing`
    /// written once accepted); `nil` if no response can be made of it. `reading` is what the cache
    /// already read of it, when it did.
    func serve(
        _ stored: CachedHTTPResponse, for request: URLRequest, as source: ResponseSource,
        _ exchange: CacheExchange, key: CacheKey, storing: CacheExchange.PendingWrite? = nil,
        reading: StoredReading? = nil
    ) -> (Data, HTTPURLResponse)? {
        guard let url = request.url,
            let http = response(
                for: stored, at: url, key: key, in: exchange,
                reading: reading ?? self.reading(of: stored, key: key))
        else {
            return nil
        }
        count { $0.hitCount += 1 }
        exchange.record(source, storing: storing, served: key.value)
        return (stored.body, http)
    }

    /// `stored`, stale, after `failure`, if
    /// ``CacheDecision/staleAfterError(_:policy:now:heuristicFraction:)`` allows it.
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

    /// What the cache read of `stored` under `key`: kept from the last hit of the same version, or read
    /// now (its ``FreshnessFields``, no response yet).
    func reading(of stored: CachedHTTPResponse, key: CacheKey) -> StoredReading {
        if let kept = readings.withLock({ $0[key.value] }), kept.stored.isSameVersion(as: stored) {
            return kept
        }
        return StoredReading(stored: stored.withoutBody, fields: FreshnessFields(stored))
    }

    /// The `HTTPURLResponse` of `stored` at `url`: the one `reading` made last time, for the same URL, or
    /// a new one, kept with `reading` for next time unless ``removeAll()`` ran since `exchange` began.
    private func response(
        for stored: CachedHTTPResponse, at url: URL, key: CacheKey, in exchange: CacheExchange,
        reading: StoredReading
    ) -> HTTPURLResponse? {
        if let made = reading.made, made.url == url { return made.response }
        guard
            let http = HTTPURLResponse(
                url: url, statusCode: stored.statusCode, httpVersion: "HTTP/1.1", headerFields: stored.headers
            )
        else { return nil }
        var kept = reading
        kept.made = (url, http)
        // Forgotten readings are released after unlocking.
        let released = readings.withLock { readings -> [String: StoredReading] in
            var released: [String: StoredReading] = [:]
            guard currentGeneration == exchange.generation else { return released }
            if readings.count >= Self.readingLimit { swap(&released, &readings) }
            released[key.value] = readings.updateValue(kept, forKey: key.value)
            return released
        }
        withExtendedLifetime(released) {}
        return http
    }
}
