// swift-format-ignore-file
// Docs/Recipes.md quotes this file line for line: laid out as the page shows it.
import Foundation
import NetworkLayer

/// The signed-in user's tokens: read for every request, renewed once however many requests see a
/// `401` together.
public actor Credentials {
    private var accessToken: String
    private let renew: @Sendable () async throws -> String

    /// Creates the store.
    /// - Parameters:
    ///   - accessToken: The token from sign-in.
    ///   - renew: Fetches a new access token (with the refresh token, which stays here).
    public init(accessToken: String, renew: @escaping @Sendable () async throws -> String) {
        self.accessToken = accessToken
        self.renew = renew
    }

    /// The token to send now.
    public var current: String { accessToken }

    /// Replaces the token with a new one.
    public func refresh() async throws {
        accessToken = try await renew()
    }
}

/// Recipe 1: the provider of an API with sign-in.
nonisolated public enum AuthenticatedProvider {
    /// A provider that sends `credentials`' token to `FilmAPI`'s host only, renews it on a `401` and
    /// retries transient failures.
    public static func make(session: any NetworkSessionType, credentials: Credentials) -> NetworkProvider {
        NetworkProvider(session: session, middlewares: [
            TokenRefreshMiddleware { try await credentials.refresh() },             // 1. on a 401: renew, send again
            AuthorizationMiddleware(for: FilmAPI.group) { await credentials.current },   // 2. each attempt reads the token
            RetryMiddleware(),                                                       // 3. closest to the network
        ])
    }
}
