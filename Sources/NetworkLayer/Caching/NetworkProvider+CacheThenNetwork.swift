/// Cache, then network, in one call: what a view model shows while it waits.
extension NetworkProvider {
    /// The stored answer at once, if the provider's ``HTTPCache`` holds one (of any age), then the
    /// server's, revalidated with the stored answer's validators.
    ///
    /// ```swift
    /// for try await films in provider.responses(for: GitHubAPI.repositories(of: "apple")) {
    ///     show(films.value, stale: films.source.isStale)
    /// }
    /// ```
    ///
    /// The sequence yields at most two responses: the stored one (``ResponseSource/cache(age:isFresh:)``),
    /// then the network's (``ResponseSource/network``, or ``ResponseSource/revalidated`` when the server
    /// answered `304`). When the network fails after a stored answer was yielded, the sequence throws
    /// that error, so the view can say it is offline while it keeps the stored value; with nothing
    /// stored, the endpoint's own ``CachePolicy/maximumStalenessOnError`` applies as in
    /// ``response(for:)``. Without a cache it yields the network's response alone. Ending the loop or
    /// cancelling the task that iterates cancels the request. The stored answer is read as a request of
    /// its own (``CachePolicy/onlyIfCached``) through your middlewares: each sees two requests, and with
    /// nothing stored ``NetworkProvider/Configuration/onEvent`` is told the first failed with
    /// ``NetworkError/notCached``.
    /// - Parameter endpoint: The endpoint to send.
    /// - Returns: The responses, in order.
    public func responses<Response>(
        for endpoint: Endpoint<Response>
    ) -> AsyncThrowingStream<NetworkResponse<Response>, any Error> {
        AsyncThrowingStream(bufferingPolicy: .unbounded) { continuation in
            let task = Task {
                do {
                    var yielded = false
                    if configuration.httpCache != nil {
                        var stored = endpoint
                        stored.cachePolicy.rule = .onlyIfCached
                        if let cached = try? await response(for: stored) {
                            continuation.yield(cached)
                            yielded = true
                        }
                    }
                    var fresh = endpoint
                    fresh.cachePolicy.rule = .revalidate
                    // The stored answer was shown: the network's failure is the news, not that answer again.
                    if yielded { fresh.cachePolicy.servesStaleOnError = false }
                    continuation.yield(try await response(for: fresh))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
