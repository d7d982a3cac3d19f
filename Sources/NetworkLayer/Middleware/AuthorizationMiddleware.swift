import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Adds an authorization header from a token provider to every request.
///
/// ```swift
/// AuthorizationMiddleware { try await tokenStore.accessToken }             // Authorization: Bearer …
/// AuthorizationMiddleware(scheme: "KakaoAK") { kakaoRESTKey }               // Authorization: KakaoAK …
/// ```
/// The token is asked for on every attempt, so after a refresh the next attempt carries the new one.
/// When the provider returns `nil`, the request goes out without the header.
public struct AuthorizationMiddleware: NetworkMiddleware {
    private let scheme: String
    private let field: String
    private let token: @Sendable () async throws -> String?

    /// Creates the middleware.
    /// - Parameters:
    ///   - scheme: Put before the token, separated by a space; `"Bearer"` by default, `""` for none.
    ///   - field: The header field; `"Authorization"` by default.
    ///   - token: Returns the current token, or `nil` for none.
    public init(
        scheme: String = "Bearer",
        field: String = "Authorization",
        token: @escaping @Sendable () async throws -> String?
    ) {
        self.scheme = scheme
        self.field = field
        self.token = token
    }

    /// Sets the header, then sends the request on.
    public func intercept(
        _ request: URLRequest, context: RequestContext, next: Next
    ) async throws -> (Data, HTTPURLResponse) {
        var request = request
        if let token = try await token() {
            request.setValue(scheme.isEmpty ? token : "\(scheme) \(token)", forHTTPHeaderField: field)
        }
        return try await next(request)
    }
}
