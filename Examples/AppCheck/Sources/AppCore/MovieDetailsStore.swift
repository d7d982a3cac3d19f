import CacheKit
import Foundation

/// A film's details, cached on disk as JSON: `Codable` gives the `DataConvertible` conformance.
nonisolated public struct MovieDetails: Codable, Sendable, Equatable, DataConvertible {
    /// The film's code.
    public let id: String
    /// Its running time in minutes.
    public let minutes: Int

    /// Creates details.
    /// - Parameters:
    ///   - id: The film's code.
    ///   - minutes: The running time.
    public init(id: String, minutes: Int) {
        self.id = id
        self.minutes = minutes
    }
}

/// Details that never change once published, kept for 30 days.
nonisolated public final class MovieDetailsStore: Sendable {
    private let cache: Cache<MovieDetails>

    /// Opens the store in `directory`.
    /// - Parameter directory: The folder of the disk tier.
    public init(directory: URL) throws {
        cache = try Cache<MovieDetails>(directory: directory)
    }

    /// The details of `id`, loaded once on a miss.
    /// - Parameters:
    ///   - id: The film's code.
    ///   - load: Fetches them on a miss.
    /// - Returns: The details.
    public func details(
        of id: String, load: @escaping @Sendable () async throws -> MovieDetails
    ) async throws -> MovieDetails {
        try await cache.lookup(forKey: id) {
            LoadedValue(try await load(), expiration: .days(30))
        }.value
    }
}
