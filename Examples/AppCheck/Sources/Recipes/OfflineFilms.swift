// swift-format-ignore-file
// Docs/Recipes.md quotes this file line for line: laid out as the page shows it.
import CacheKit
import Foundation
import NetworkLayer

/// A value, and whether it is the network's answer or an older one kept for when the network fails.
nonisolated public struct Fresh<Value: Sendable>: Sendable {
    /// The value.
    public let value: Value
    /// How old the value is, if it came from the cache because the network failed; `nil` when it is the
    /// network's answer (or one the server confirmed).
    public let age: Duration?
    /// Why the network failed, when the value came from the cache.
    public let networkError: NetworkError?
}

/// Recipe 3: the network's answer when it comes, and the last one kept when it does not.
nonisolated public final class OfflineFilms: Sendable {
    private let provider: NetworkProvider

    /// Creates the repository.
    /// - Parameters:
    ///   - provider: Sends the requests; the repository adds an HTTP cache to its configuration.
    ///   - folder: Where the last answers are kept, across launches.
    ///   - user: Whose answers they are (the signed-in user's id): they stay theirs when the access token
    ///     is renewed.
    ///   - clock: The cache's time; the system's by default.
    public init(provider: NetworkProvider, folder: URL, user: String, clock: CacheClock = .system) throws {
        var configuration = provider.configuration
        configuration.httpCache = HTTPCache(
            store: try DiskHTTPCacheStore(directory: folder, clock: clock), partition: { _ in user },
            now: clock.now)
        self.provider = NetworkProvider(
            session: provider.session, middlewares: provider.middlewares, configuration: configuration)
    }

    /// The first page of films matching `text`: the network's; or, when the network fails, the one kept
    /// last time (up to 30 days old), saying how old it is. Without one, the network's error.
    public func search(_ text: String) async throws -> Fresh<FilmPage> {
        var search = FilmAPI.search(text, page: 1)
        search.cachePolicy = .useProtocol.acceptingStaleOnError(upTo: .seconds(30 * 86_400))
        let answer = try await provider.response(for: search)
        guard case .staleAfterError(let age, let error) = answer.source else {
            return Fresh(value: answer.value, age: nil, networkError: nil)
        }
        return Fresh(value: answer.value, age: age, networkError: error)
    }
}
