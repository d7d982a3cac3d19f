import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One step around every request: it may change the request, send it (once, several times, or not at
/// all) through `next`, and look at or replace the response.
///
/// Middlewares run in the order given to ``NetworkProvider``: the first sees the request first and the
/// response last, like layers of an onion. A typical order:
/// `[LoggingMiddleware, TokenRefreshMiddleware, AuthorizationMiddleware, RetryMiddleware]`: logging sees
/// the whole exchange; a refresh retries through authorization, which adds the new token; retries happen
/// closest to the transport, each attempt with its own timeout.
///
/// ```swift
/// struct UserAgent: NetworkMiddleware {
///     func intercept(_ request: URLRequest, context: RequestContext, next: Next) async throws -> (Data, HTTPURLResponse) {
///         var request = request
///         request.setValue("boxoffice/1.0", forHTTPHeaderField: "User-Agent")
///         return try await next(request)
///     }
/// }
/// ```
public protocol NetworkMiddleware: Sendable {
    /// Sends the request on to the rest of the chain.
    typealias Next = @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)

    /// Handles one request.
    /// - Parameters:
    ///   - request: The request as the previous middleware left it.
    ///   - context: Facts about the endpoint being sent.
    ///   - next: The rest of the chain, ending at the transport.
    /// - Returns: The body and the response.
    /// - Throws: A ``NetworkError``, or any error, which the provider wraps as
    ///   ``NetworkError/middleware(_:)``.
    func intercept(
        _ request: URLRequest,
        context: RequestContext,
        next: Next
    ) async throws -> (Data, HTTPURLResponse)
}

/// What a middleware knows about the request it handles.
public struct RequestContext: Sendable {
    /// The endpoint's name: its method and path.
    public let endpointName: String
    /// Whether the endpoint may be retried.
    public let isIdempotent: Bool
    /// The status codes the endpoint accepts.
    public let acceptableStatusCodes: any StatusCodeSet
    /// The attempts so far, with their timing and sizes: after `next` returns, `metrics.last` is the
    /// attempt it made.
    public let metrics: RequestMetricsLog
    /// The request's use of the provider's ``HTTPCache``, when it has one and this is a whole-body
    /// request.
    var cacheExchange: CacheExchange? = nil
    /// The secret values the request's attempts carry, held until it ends.
    let credentialsInUse = CredentialUse()
}
