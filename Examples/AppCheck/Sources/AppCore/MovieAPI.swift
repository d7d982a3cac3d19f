import Foundation
import NetworkLayer

/// The search API's endpoints.
public enum MovieAPI {
    static let group = EndpointGroup(baseURL: URL(string: "https://movies.example.com/v1")!)

    static func search(_ text: String) -> Endpoint<MovieSearchResponse> {
        group.get("search", query: ["q": text])
    }

    static func poster(at url: URL) -> Endpoint<Data> {
        Endpoint(baseURL: url)
    }
}

/// Where the view models get films from.
public protocol MovieRepository: Sendable {
    /// Searches films by title.
    func search(_ text: String) async throws -> [Movie]
    /// A film's poster, if it has one.
    func poster(for movie: Movie) async throws -> Data?
}

/// The repository over the network, with posters cached in memory and on disk.
nonisolated public final class LiveMovieRepository: MovieRepository {
    private let provider: NetworkProvider
    private let posters: PosterCache

    /// Creates the repository.
    /// - Parameters:
    ///   - provider: Sends the requests.
    ///   - posters: Caches the posters.
    public init(provider: NetworkProvider, posters: PosterCache) {
        self.provider = provider
        self.posters = posters
    }

    /// Searches films by title.
    /// - Parameter text: Part of a title.
    /// - Returns: The films found.
    public func search(_ text: String) async throws -> [Movie] {
        try await provider.send(MovieAPI.search(text)).results
    }

    /// A film's poster, from the cache or downloaded once.
    /// - Parameter movie: The film.
    /// - Returns: The poster's bytes, or `nil` when the film has none.
    public func poster(for movie: Movie) async throws -> Data? {
        guard let url = movie.posterURL else { return nil }
        return try await posters.poster(at: url) { [provider] in
            try await provider.send(MovieAPI.poster(at: url))
        }
    }
}
