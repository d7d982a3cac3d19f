import Foundation
import NetworkLayer

/// Where a day's box office comes from.
public protocol BoxOfficeRepository: Sendable {
    /// The chart for `day`.
    /// - Throws: ``KobisError``, ``KobisMappingError`` or a `NetworkError`; `CancellationError` when
    ///   cancelled.
    func dailyBoxOffice(for day: Day) async throws -> DailyBoxOffice
}

/// Where a film's details come from.
public protocol MovieRepository: Sendable {
    /// The details of the film `code`.
    /// - Throws: ``KobisError``, ``KobisMappingError`` or a `NetworkError`.
    func movieDetails(code: String) async throws -> MovieDetails
}

/// Finds a film's poster, wherever it is cheapest: memory, then disk, then the network.
public protocol PosterProviding: Sendable {
    /// The poster of `movie`, or `nil` when the search finds none.
    /// - Throws: When the search or the download fails.
    func poster(for movie: MovieDetails) async throws -> Poster?
}

/// KOBIS through NetworkLayer.
public struct KobisBoxOfficeRepository: BoxOfficeRepository, MovieRepository {
    private let api: KobisAPI
    private let provider: NetworkProvider

    /// Creates the repository.
    /// - Parameters:
    ///   - api: The endpoints, with their key.
    ///   - provider: Sends them.
    public init(api: KobisAPI, provider: NetworkProvider) {
        self.api = api
        self.provider = provider
    }

    /// The chart for `day`, from `searchDailyBoxOfficeList`.
    public func dailyBoxOffice(for day: Day) async throws -> DailyBoxOffice {
        let response = try await provider.send(api.dailyBoxOffice(for: day))
        return try DailyBoxOffice(day: day, response: response)
    }

    /// The details, from `searchMovieInfo`.
    public func movieDetails(code: String) async throws -> MovieDetails {
        try MovieDetails(response: try await provider.send(api.movieInfo(code: code)))
    }
}
