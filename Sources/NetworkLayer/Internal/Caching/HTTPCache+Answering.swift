import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cache's step in the pipeline: between the last middleware and the transport, once per attempt.
extension HTTPCache {
    /// Statuses after which a stale answer may be given instead (RFC 5861 section 4).
    static let staleIfErrorStatuses: Set<Int> = [500, 502, 503, 504]

    /// Answers `request` from the store, the network through `next`, or both, as the exchange's policy
    /// and RFC 9111 say, recording where the answer came from in `exchange`. A background revalidation
    /// (`stale-while-revalidate`) sends through `refresh`, which records no attempt of this request's.
    func answer(
        _ request: URLRequest, exchange: CacheExchange, next: @escaping NetworkMiddleware.Next,
        refresh: @escaping NetworkMiddleware.Next
    ) async throws -> (Data, HTTPURLResponse) {
        var request = request
        // URLCache (Apple platforms) must never answer in this cache's place.
        request.cachePolicy = .reloadIgnoringLocalCacheData
        let method = request.httpMethod?.uppercased() ?? "GET"
        // The request's own fields, looked up once by lowercase name (most requests have a few or none).
        let fields = Dictionary(
            (request.allHTTPHeaderFields ?? [:]).map { ($0.key.lowercased(), $0.value) },
            uniquingKeysWith: { $1 })
        let control = Self.requestControl(fields)
        // The request as the session will send it: its headers and cookies count for Vary and partitions.
        let sent = exchange.asSent(request)
        guard method == "GET", !control.noStore, !Self.hasOwnConditions(fields),
            let key = CacheKey(sent, partition: partition?(request))
        else {
            let answer = try await next(request)
            invalidate(after: request, answeredBy: answer.1, asSent: exchange.asSent)
            exchange.record(.network)
            return answer
        }
        count { $0.requestCount += 1 }
        let stored = storedAnswer(for: key).flatMap { entry in
            entry.variants.isEmpty
                || entry.variants == CacheKey.variants(named: Array(entry.variants.keys), in: sent)
                ? entry : nil
        }
        var rule = exchange.policy.rule
        if control.noCache, rule == .useProtocol { rule = .revalidate }
        if control.onlyIfCached {
            // The request's own only-if-cached: a stored answer it accepts (fresh, or within its
            // max-stale; any age under a policy that takes any), else what a 504 would say (RFC 9111
            // section 5.2.1.7). Never the network.
            if let stored {
                let freshness = freshness(of: stored, exchange)
                let source = ResponseSource.cache(
                    age: .seconds(seconds: freshness.age), isFresh: freshness.isFresh)
                let anyAge = rule == .onlyIfCached || rule == .returnCacheElseLoad
                if anyAge || Self.satisfies(control, freshness),
                    let served = serve(stored, for: request, as: source, exchange, key: key)
                {
                    return served
                }
            }
            throw NetworkError.notCached
        }
        if let stored {
            let freshness = freshness(of: stored, exchange)
            let age = Duration.seconds(seconds: freshness.age)
            switch rule {
            case .onlyIfCached, .returnCacheElseLoad:
                if let served = serve(
                    stored, for: request, as: .cache(age: age, isFresh: freshness.isFresh), exchange, key: key
                ) {
                    return served
                }
                if rule == .onlyIfCached { throw NetworkError.notCached }
            case .useProtocol where Self.satisfies(control, freshness):
                let source = ResponseSource.cache(age: age, isFresh: freshness.isFresh)
                if let served = serve(stored, for: request, as: source, exchange, key: key) {
                    return served
                }
            case .useProtocol
            where freshness.allowsStaleWhileRevalidating && control.maxAge == nil && control.minFresh == nil:
                let source = ResponseSource.cache(age: age, isFresh: false)
                if let served = serve(stored, for: request, as: source, exchange, key: key) {
                    refreshInBackground(
                        request, sent: sent, stored: stored, key: key, exchange: exchange, refresh: refresh)
                    return served
                }
            default:
                break
            }
        } else if rule == .onlyIfCached {
            throw NetworkError.notCached
        }
        let validated = rule == .reload ? nil : stored
        return try await fetch(
            request, sent: sent, key: key, stored: stored, validated: validated, exchange: exchange,
            next: next)
    }

    /// Asks the network, with `validated`'s validators if given; a `304` confirms it, a failure may be
    /// answered with `stored` when stale answers are acceptable.
    private func fetch(
        _ request: URLRequest, sent: URLRequest, key: CacheKey, stored: CachedHTTPResponse?,
        validated: CachedHTTPResponse?,
        exchange: CacheExchange, next: NetworkMiddleware.Next
    ) async throws -> (Data, HTTPURLResponse) {
        let asked = validated.map { Self.conditional(request, on: $0) } ?? request
        let sentValidators = Self.carriesValidators(asked)
        count { $0.networkCount += 1 }
        let requestDate = now()
        let data: Data
        let http: HTTPURLResponse
        do {
            (data, http) = try await next(asked)
        } catch {
            if let stored, let failure = Self.staleWorthy(error),
                let served = serveStale(stored, for: request, after: failure, exchange, key: key)
            {
                return served
            }
            throw error
        }
        let responseDate = now()
        if http.statusCode == 304, sentValidators, let validated {
            guard Self.confirms(http, validated) else {
                // The 304 names another version than the stored one: ask again for the whole answer.
                store.removeResponse(forKey: key.value)
                return try await fetch(
                    request, sent: sent, key: key, stored: nil, validated: nil, exchange: exchange, next: next
                )
            }
            let (updated, keepable) = validated.revalidated(
                by: http, requestDate: requestDate, responseDate: responseDate)
            count { $0.conditionalHitCount += 1 }
            // A 304 that adds no-store (or echoes a credential) confirms the answer for this use only.
            if !keepable { store.removeResponse(forKey: key.value) }
            let write =
                keepable
                ? CacheExchange.PendingWrite(key: key.value, response: updated, replacing: validated) : nil
            if let served = serve(updated, for: request, as: .revalidated, exchange, key: key, storing: write)
            {
                return served
            }
        }
        if Self.staleIfErrorStatuses.contains(http.statusCode), let stored {
            let failure = NetworkError.unacceptableStatus(
                .init(statusCode: http.statusCode, headers: http.headerFields, body: data, url: http.url))
            if let served = serveStale(stored, for: request, after: failure, exchange, key: key) {
                return served
            }
        }
        if Self.answersItself(http, request),
            let entry = CachedHTTPResponse(
                storing: http, body: data, for: sent, requestDate: requestDate,
                responseDate: responseDate)
        {
            exchange.record(.network, storing: .init(key: key.value, response: entry))
        } else {
            // A new version that cannot be kept (no-store, a credential echoed, Vary: *) must not leave
            // the old one to be served after it.
            if CacheControl(http.value(forHTTPHeaderField: "Cache-Control")).noStore
                || ((200..<300).contains(http.statusCode) && Self.answersItself(http, request))
            {
                store.removeResponse(forKey: key.value)
            }
            exchange.record(.network)
        }
        return (data, http)
    }

    /// `stored`, kept under `key`, as the answer to `request`, recorded as `source` (and `storing`
    /// written once accepted); `nil` if no response can be made of it.
    private func serve(
        _ stored: CachedHTTPResponse, for request: URLRequest, as source: ResponseSource,
        _ exchange: CacheExchange, key: CacheKey, storing: CacheExchange.PendingWrite? = nil
    ) -> (Data, HTTPURLResponse)? {
        guard let url = request.url,
            let http = HTTPURLResponse(
                url: url, statusCode: stored.statusCode, httpVersion: "HTTP/1.1", headerFields: stored.headers
            )
        else { return nil }
        count { $0.hitCount += 1 }
        exchange.record(source, storing: storing, served: key.value)
        return (stored.body, http)
    }

    /// `stored`, stale, after `failure`, if the response's `stale-if-error` or the policy accepts it.
    private func serveStale(
        _ stored: CachedHTTPResponse, for request: URLRequest, after failure: NetworkError,
        _ exchange: CacheExchange, key: CacheKey
    ) -> (Data, HTTPURLResponse)? {
        guard exchange.policy.servesStaleOnError else { return nil }
        let freshness = freshness(of: stored, exchange)
        let accepted = exchange.policy.maximumStalenessOnError.map(\.timeInterval)
        guard freshness.allowsStaleAfterError(accepting: accepted) else { return nil }
        let source = ResponseSource.staleAfterError(age: .seconds(seconds: freshness.age), error: failure)
        return serve(stored, for: request, as: source, exchange, key: key)
    }

    /// Revalidates `stored` in a task of its own (`stale-while-revalidate`), one at a time per key,
    /// through `refresh` (which records nothing in the request's metrics or events: the request has its
    /// answer), storing what the server answers if the endpoint accepts it.
    private func refreshInBackground(
        _ request: URLRequest, sent: URLRequest, stored: CachedHTTPResponse, key: CacheKey,
        exchange: CacheExchange,
        refresh: @escaping NetworkMiddleware.Next
    ) {
        guard beginRefreshing(key.value) else { return }
        let asked = Self.conditional(request, on: stored)
        let sentValidators = Self.carriesValidators(asked)
        Task { [self] in
            defer { endRefreshing(key.value) }
            count { $0.networkCount += 1 }
            let requestDate = now()
            guard let (data, http) = try? await refresh(asked) else { return }
            let started = exchange.generation
            if http.statusCode == 304 {
                guard sentValidators, Self.confirms(http, stored) else { return }
                count { $0.conditionalHitCount += 1 }
                let (updated, keepable) = stored.revalidated(
                    by: http, requestDate: requestDate, responseDate: now())
                if keepable {
                    store(updated, forKey: key.value, startedIn: started, replacing: stored)
                } else {
                    store.removeResponse(forKey: key.value)
                }
            } else if Self.answersItself(http, request),
                let entry = CachedHTTPResponse(
                    storing: http, body: data, for: sent, requestDate: requestDate,
                    responseDate: now()),
                exchange.accepts(data, http)
            {
                store(entry, forKey: key.value, startedIn: started, replacing: stored)
            } else if CacheControl(http.value(forHTTPHeaderField: "Cache-Control")).noStore {
                store.removeResponse(forKey: key.value)
            }
        }
    }

    /// How fresh `stored` is now, under the exchange's policy.
    private func freshness(of stored: CachedHTTPResponse, _ exchange: CacheExchange) -> Freshness {
        Freshness(
            of: stored, at: now(), heuristicFraction: heuristicFraction,
            assumed: exchange.policy.assumedLifetime?.timeInterval)
    }

    /// Whether the stored answer may be used without asking: fresh, or stale within the request's own
    /// `max-stale` (unless the response forbids stale use), and within its `max-age` and `min-fresh`.
    private static func satisfies(_ control: CacheControl, _ freshness: Freshness) -> Bool {
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

    /// Whether the caller set validators or a range of its own: then its `304` or `206` is its own
    /// business, and the cache stays out.
    private static func hasOwnConditions(_ fields: [String: String]) -> Bool {
        !fields.isEmpty
            && ["if-none-match", "if-modified-since", "if-match", "if-unmodified-since", "if-range", "range"]
                .contains { fields[$0] != nil }
    }
}
