import CacheKit
import Foundation

/// Posters in memory in front of a folder of the app's choosing.
nonisolated public final class PosterCache: Sendable {
    private let cache: Cache<Data>

    /// Opens the cache in `directory`.
    /// - Parameter directory: The folder of the disk tier.
    public init(directory: URL) throws {
        cache = try Cache<Data>(directory: directory)
    }

    /// The poster at `url`, downloaded on a miss.
    /// - Parameters:
    ///   - url: The poster's address, its key.
    ///   - download: Fetches it on a miss.
    /// - Returns: The poster's bytes.
    public func poster(at url: URL, download: @escaping @Sendable () async throws -> Data) async throws
        -> Data
    {
        try await cache.value(forKey: url.absoluteString) { try await download() }
    }
}
