import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cache's step when it asks the network: in the foreground, and in a `stale-while-revalidate`
/// refresh. What each answer does is ``CacheDecision``'s to say; this file acts on it.
extension HTTPCache {
    /// Asks the network for `request` (sent as `sent`) with `validators` (`stored`'s, or none); a `304`
    /// confirms `stored`, a failure may be answered with `stored` when stale answers are acceptable.
    // swift-format-ignore: FunctionParameterCount
    func fetch(
        _ request: URLRequest, sent: URLRequest, key: CacheKey, stored: CachedHTTPResponse?,
        validators: [String: String], exchange: CacheExchange, next: NetworkMiddleware.Next
    ) async throws -> (Data, HTTPURLResponse) {
        var asked = request
        for (name, value) in validators { asked.setValue(value, forHTTPHeaderField: name) }
        let validated = validators.isEmpty ? nil : stored
        count { $0.networkCount += 1 }
        let requestDate = now()
        let data: Data
        let http: HTTPURLResponse
        do {
            (data, http) = try await next(asked)
        } catch {
            if let stored, let failure = CacheDecision.staleWorthy(error),
                let served = serveStale(stored, for: request, after: failure, exchange, key: key)
            {
                return served
            }
            throw error
        }
        let responseDate = now()
        if http.statusCode == 304, let validated {
            switch CacheDecision.afterNotModified(
                http, validated: validated, requestDate: requestDate, responseDate: responseDate)
            {
            case .untrusted:
                // The 304 names another version than the stored one: ask again for the whole answer.
                store.removeResponse(forKey: key.value)
                return try await fetch(
                    request, sent: sent, key: key, stored: nil, validators: [:], exchange: exchange,
                    next: next)
            case .confirmed(let updated, let keep):
                count { $0.conditionalHitCount += 1 }
                // A 304 that adds no-store (or echoes a credential) confirms the answer for this use only.
                if !keep { store.removeResponse(forKey: key.value) }
                let write =
                    keep
                    ? CacheExchange.PendingWrite(key: key.value, response: updated, replacing: validated)
                    : nil
                if let served = serve(
                    updated, for: request, as: .revalidated, exchange, key: key, storing: write)
                {
                    return served
                }
            }
        }
        if FailureKinds.staleIfErrorStatuses.contains(http.statusCode), let stored {
            let failure = NetworkError.unacceptableStatus(
                .init(statusCode: http.statusCode, headers: http.headerFields, body: data, url: http.url))
            if let served = serveStale(stored, for: request, after: failure, exchange, key: key) {
                return served
            }
        }
        switch CacheDecision.afterAnswer(
            http, body: data, request: request, sent: sent, requestDate: requestDate,
            responseDate: responseDate)
        {
        case .store(let entry):
            exchange.record(.network, storing: .init(key: key.value, response: entry))
        case .removeStored:
            store.removeResponse(forKey: key.value)
            exchange.record(.network)
        case .leave:
            exchange.record(.network)
        }
        return (data, http)
    }

    /// Revalidates `stored` in a task of its own (`stale-while-revalidate`), one at a time per key,
    /// through `refresh` (which records nothing in the request's metrics or events: the request has its
    /// answer), storing what the server answers if the endpoint accepts it, and only while `stored` is
    /// still the answer kept.
    func refreshInBackground(
        _ request: URLRequest, sent: URLRequest, stored: CachedHTTPResponse, key: CacheKey,
        exchange: CacheExchange, refresh: @escaping NetworkMiddleware.Next
    ) {
        guard beginRefreshing(key.value) else { return }
        let validators = CacheDecision.validators(of: stored)
        var asked = request
        for (name, value) in validators { asked.setValue(value, forHTTPHeaderField: name) }
        Task { [self] in
            defer { endRefreshing(key.value) }
            count { $0.networkCount += 1 }
            let requestDate = now()
            guard let (data, http) = try? await refresh(asked) else { return }
            let started = exchange.generation
            if http.statusCode == 304 {
                guard !validators.isEmpty,
                    case .confirmed(let updated, let keep) = CacheDecision.afterNotModified(
                        http, validated: stored, requestDate: requestDate, responseDate: now())
                else { return }
                count { $0.conditionalHitCount += 1 }
                if keep {
                    store(updated, forKey: key.value, startedIn: started, replacing: stored)
                } else {
                    store.removeResponse(forKey: key.value)
                }
                return
            }
            switch CacheDecision.afterAnswer(
                http, body: data, request: request, sent: sent, requestDate: requestDate, responseDate: now())
            {
            case .store(let entry) where exchange.accepts(data, http):
                store(entry, forKey: key.value, startedIn: started, replacing: stored)
            case .removeStored:
                store.removeResponse(forKey: key.value)
            case .store, .leave:
                break
            }
        }
    }
}
