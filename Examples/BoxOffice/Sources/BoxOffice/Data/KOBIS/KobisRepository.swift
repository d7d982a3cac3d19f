import Foundation
import NetworkLayer

/// KOBIS through NetworkLayer: the chart, a film's details and the title search. Register it once and
/// forward it to each domain protocol it implements.
public struct KobisBoxOfficeRepository: BoxOfficeRepository, MovieRepository, MovieSearchRepository {
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
        try await DataErrors.translating {
            try DailyBoxOffice(day: day, response: try await provider.send(api.dailyBoxOffice(for: day)))
        }
    }

    /// The details, from `searchMovieInfo`.
    public func movieDetails(code: String) async throws -> MovieDetails {
        try await DataErrors.translating {
            try MovieDetails(response: try await provider.send(api.movieInfo(code: code)))
        }
    }

    /// The matches, from `searchMovieList`; `limit` is clamped to KOBIS's 1 to 100.
    public func searchMovies(title: String, limit: Int) async throws -> MovieSearchResult {
        try await DataErrors.translating {
            let response = try await provider.send(
                api.movieList(title: title, limit: min(max(limit, 1), 100)))
            return try MovieSearchResult(query: title, response: response)
        }
    }
}
