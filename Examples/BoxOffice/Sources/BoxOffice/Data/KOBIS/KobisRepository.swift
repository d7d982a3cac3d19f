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
    /// - Throws: ``BoxOfficeError/notFound(_:)`` when KOBIS has no film with that code.
    public func movieDetails(code: String) async throws -> MovieDetails {
        try await DataErrors.translating {
            let response = try await provider.send(api.movieInfo(code: code))
            guard response.movieInfoResult.movieInfo != nil else {
                throw BoxOfficeError.notFound("KOBIS has no film with the code \(code)")
            }
            return try MovieDetails(response: response)
        }
    }

    /// The matches, from `searchMovieList`; `limit` is clamped to KOBIS's 1 to 100, and a server sending
    /// more films than asked for is cut to it.
    public func searchMovies(title: String, limit: Int) async throws -> MovieSearchResult {
        try await DataErrors.translating {
            let clamped = min(max(limit, 1), 100)
            let response = try await provider.send(api.movieList(title: title, limit: clamped))
            return try MovieSearchResult(query: title, response: response, limit: clamped)
        }
    }
}
