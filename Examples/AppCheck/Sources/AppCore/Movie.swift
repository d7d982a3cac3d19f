import Foundation

/// A film as the search API returns it.
nonisolated public struct Movie: Decodable, Sendable, Equatable, Identifiable {
    /// The film's code.
    public let id: String
    /// The film's title.
    public let title: String
    /// Where its poster is, if anywhere.
    public let posterURL: URL?

    /// Creates a film.
    /// - Parameters:
    ///   - id: The code.
    ///   - title: The title.
    ///   - posterURL: The poster's address.
    public init(id: String, title: String, posterURL: URL?) {
        self.id = id
        self.title = title
        self.posterURL = posterURL
    }
}

/// The search API's answer.
nonisolated public struct MovieSearchResponse: Decodable, Sendable {
    /// The films found.
    public let results: [Movie]
}
