import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Adds an authorization header from a token provider to requests for the hosts it is told about, and
/// to no others.
///
/// ```swift
/// AuthorizationMiddleware(for: kakaoAPI) { kakaoRESTKey }                   // only kakaoAPI's host
/// AuthorizationMiddleware(hosts: ["api.example.com"]) { try await tokens.accessToken }
/// ```
/// A credential is meant for one API. A provider also sends requests elsewhere (an image URL an API
/// returned points at any site on the web), so the header is added only to requests for that API: made
/// `for:` an endpoint group, to the group's origin (scheme, host and port, as a browser judges origins);
/// made with `hosts:`, to those hosts (compared without regard to case, on any scheme and port; no
/// subdomain matches another). A redirect to another origin never carries it either: URLSession
/// requests sent through NetworkLayer strip credential headers from such redirects.
///
/// The token is asked for on every attempt, so after a refresh the next attempt carries the new one.
/// When the provider returns `nil`, the request goes out without the header.
///
/// Its `field` is declared a credential (``Credentials``), and so is each value it sets: whatever the
/// field's name (`CB-ACCESS-PASSPHRASE`), it is stripped from a redirect to another origin, refused by a
/// background session, and hidden from logs, errors and recordings, by name and by value.
public struct AuthorizationMiddleware: NetworkMiddleware {
    /// The hosts that receive the header, lowercased.
    public let hosts: Set<String>
    /// The one origin that receives the header, when made `for:` a group.
    private let origin: URL?
    private let scheme: String
    private let field: String
    private let token: @Sendable () async throws -> String?

    /// Creates the middleware for an explicit list of hosts.
    /// - Parameters:
    ///   - scheme: Put before the token, separated by a space; `"Bearer"` by default, `""` for none.
    ///   - field: The header field; `"Authorization"` by default.
    ///   - hosts: The hosts whose requests get the header, such as `["dapi.kakao.com"]`.
    ///   - token: Returns the current token, or `nil` for none.
    public init(
        scheme: String = "Bearer",
        field: String = "Authorization",
        hosts: Set<String>,
        token: @escaping @Sendable () async throws -> String?
    ) {
        self.hosts = Set(hosts.map { $0.lowercased() })
        self.origin = nil
        self.scheme = scheme
        self.field = field
        self.token = token
        Credentials.declare(headerNames: [field])
    }

    /// Creates the middleware for the origin (scheme, host and port) of an endpoint group's base URL.
    /// - Parameters:
    ///   - group: The API the credential belongs to.
    ///   - scheme: Put before the token; `"Bearer"` by default, `""` for none.
    ///   - field: The header field; `"Authorization"` by default.
    ///   - token: Returns the current token, or `nil` for none.
    public init(
        for group: EndpointGroup,
        scheme: String = "Bearer",
        field: String = "Authorization",
        token: @escaping @Sendable () async throws -> String?
    ) {
        self.hosts = Set([group.baseURL.host?.lowercased()].compactMap { $0 })
        self.origin = group.baseURL
        self.scheme = scheme
        self.field = field
        self.token = token
        Credentials.declare(headerNames: [field])
    }

    /// Whether a request to `url` gets the header.
    /// - Parameter url: The request's URL.
    /// - Returns: `true` when it has the group's origin, or, for a list of hosts, one of ``hosts``.
    public func applies(to url: URL?) -> Bool {
        if let origin { return RedirectGuard.isSameOrigin(origin, url) }
        guard let host = url?.host?.lowercased() else { return false }
        return hosts.contains(host)
    }

    /// Sets the header when ``applies(to:)`` the request's URL, then sends the request on.
    public func intercept(
        _ request: URLRequest, context: RequestContext, next: Next
    ) async throws -> (Data, HTTPURLResponse) {
        guard applies(to: request.url) else { return try await next(request) }
        var request = request
        if let token = try await token() {
            Credentials.learn(value: token)
            request.setValue(scheme.isEmpty ? token : "\(scheme) \(token)", forHTTPHeaderField: field)
        }
        return try await next(request)
    }
}
