import Foundation
import NetworkLayer

/// A film as the recipes' API sends it.
nonisolated public struct Film: Codable, Sendable, Equatable, Identifiable {
    /// The film's code.
    public let id: String
    /// The film's title.
    public let title: String

    /// Creates a film.
    /// - Parameters:
    ///   - id: The code.
    ///   - title: The title.
    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }
}

/// One page of a search.
nonisolated public struct FilmPage: Codable, Sendable, Equatable {
    /// The films on this page.
    public let films: [Film]
    /// Whether a next page exists.
    public let hasMore: Bool

    /// Creates a page.
    /// - Parameters:
    ///   - films: The films.
    ///   - hasMore: Whether there is a next page.
    public init(films: [Film], hasMore: Bool) {
        self.films = films
        self.hasMore = hasMore
    }
}

/// The recipes' API.
nonisolated public enum FilmAPI {
    /// The API's base.
    public static let group = EndpointGroup(baseURL: URL(string: "https://films.example.com/v1")!)

    /// A page of the films matching `text`, from 1.
    public static func search(_ text: String, page: Int) -> Endpoint<FilmPage> {
        group.get("search", query: ["q": text, "page": String(page)])
    }

    /// A trailer's bytes.
    public static func trailer(_ id: String) -> Endpoint<Data> {
        Endpoint(baseURL: group.baseURL, path: "trailers/\(id)")
    }
}
