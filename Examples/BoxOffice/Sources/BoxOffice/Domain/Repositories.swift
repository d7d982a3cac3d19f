import Foundation

// The domain's repository protocols: what the app needs, not how it is fetched. Implementations live in
// the data layer; every failure they throw is a ``BoxOfficeError``, or `CancellationError` when the
// calling task was cancelled.

/// Where a day's box office comes from.
public protocol BoxOfficeRepository: Sendable {
    /// The chart for `day`.
    /// - Throws: ``BoxOfficeError``; `CancellationError` when cancelled.
    func dailyBoxOffice(for day: Day) async throws -> DailyBoxOffice

    /// The chart for `day` from the service itself, past any cache (a user's refresh).
    /// - Throws: ``BoxOfficeError``; `CancellationError` when cancelled.
    func refreshedDailyBoxOffice(for day: Day) async throws -> DailyBoxOffice
}

extension BoxOfficeRepository {
    /// ``dailyBoxOffice(for:)``: a repository without a cache has nothing to get past.
    public func refreshedDailyBoxOffice(for day: Day) async throws -> DailyBoxOffice {
        try await dailyBoxOffice(for: day)
    }
}

/// Where a film's details come from.
public protocol MovieRepository: Sendable {
    /// The details of the film `code`.
    /// - Throws: ``BoxOfficeError``; `CancellationError` when cancelled.
    func movieDetails(code: String) async throws -> MovieDetails
}

/// Finds films by title.
public protocol MovieSearchRepository: Sendable {
    /// The first `limit` films whose title contains `title`.
    /// - Parameters:
    ///   - title: Part of a title, already trimmed and not empty.
    ///   - limit: How many films to return at most, 1 to 100.
    /// - Throws: ``BoxOfficeError``; `CancellationError` when cancelled.
    func searchMovies(title: String, limit: Int) async throws -> MovieSearchResult
}

/// Finds a film's poster, wherever it is cheapest: memory, then disk, then the network.
public protocol PosterProviding: Sendable {
    /// The poster of the film `movieCode` titled `title`, or `nil` when the search finds none. The title
    /// is all the search needs, so a chart row whose details failed can still have its poster.
    /// - Throws: ``BoxOfficeError`` when the search or the download fails; `CancellationError` when
    ///   cancelled.
    func poster(movieCode: String, title: String) async throws -> Poster?
}

extension PosterProviding {
    /// The poster of `movie`, or `nil` when the search finds none.
    /// - Throws: ``BoxOfficeError`` when the search or the download fails; `CancellationError` when
    ///   cancelled.
    public func poster(for movie: MovieDetails) async throws -> Poster? {
        try await poster(movieCode: movie.movieCode, title: movie.title)
    }
}
