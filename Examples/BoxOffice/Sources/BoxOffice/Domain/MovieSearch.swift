/// One film a title search found: what a results list shows, and the code that opens its details.
public struct MovieSummary: Hashable, Sendable, Codable {
    /// The KOBIS movie code.
    public let movieCode: String
    /// The Korean title, trimmed.
    public let title: String
    /// The English title; empty when KOBIS has none.
    public let englishTitle: String
    /// The production year, or `nil` when unknown.
    public let productionYear: Int?
    /// The release date, or `nil` for a film not (yet) released.
    public let openDate: Day?
    /// Genre names.
    public let genres: [String]
    /// Directors' names.
    public let directors: [String]

    /// Creates a summary.
    public init(
        movieCode: String, title: String, englishTitle: String, productionYear: Int?, openDate: Day?,
        genres: [String], directors: [String]
    ) {
        self.movieCode = movieCode
        self.title = title
        self.englishTitle = englishTitle
        self.productionYear = productionYear
        self.openDate = openDate
        self.genres = genres
        self.directors = directors
    }
}

/// The answer to a title search: the first page of matches and how many there are in all.
public struct MovieSearchResult: Hashable, Sendable {
    /// The title searched for, trimmed.
    public let query: String
    /// How many films match in all; at least `movies.count`.
    public let totalCount: Int
    /// The first matches, in the service's order.
    public let movies: [MovieSummary]

    /// Creates a result.
    public init(query: String, totalCount: Int, movies: [MovieSummary]) {
        self.query = query
        self.totalCount = totalCount
        self.movies = movies
    }
}
