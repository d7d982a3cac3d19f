import CacheKit
import Foundation
import NetworkLayer

/// Posters through CacheKit: the image URL a search found, and the image itself, each cached in memory
/// and on disk, each loaded once however many callers ask at the same time.
///
/// A second run finds both on disk and touches no network.
public final class PosterProvider: PosterProviding {
    private let api: KakaoAPI
    private let provider: NetworkProvider
    /// Image URL by movie code (an empty string when the search found nothing).
    private let searches: Cache<String>
    /// Image bytes by image URL.
    private let images: Cache<Data>

    /// Creates the provider.
    /// - Parameters:
    ///   - api: Kakao's endpoints.
    ///   - provider: Sends the search and the download (with the `KakaoAK` authorization).
    ///   - directory: Where the caches keep their files.
    ///   - clock: The caches' time source; the system clock by default.
    /// - Throws: `CacheError` when the cache directories cannot be created.
    public init(api: KakaoAPI, provider: NetworkProvider, directory: URL, clock: CacheClock = .system) throws
    {
        self.api = api
        self.provider = provider
        searches = Cache(
            memory: MemoryStorage(configuration: .init(sweepInterval: nil), clock: clock),
            disk: try DiskStorage(
                configuration: .init(
                    directory: directory.appendingPathComponent("searches"), expiration: .days(30)),
                clock: clock))
        images = Cache(
            memory: MemoryStorage(
                configuration: .init(totalCostLimit: 32 * 1024 * 1024, sweepInterval: nil), clock: clock),
            disk: try DiskStorage(
                configuration: .init(
                    directory: directory.appendingPathComponent("images"), sizeLimit: 200 * 1024 * 1024,
                    expiration: .days(30)),
                clock: clock))
    }

    /// The poster of `movie`, or `nil` when no image is found.
    public func poster(for movie: MovieDetails) async throws -> Poster? {
        let found = try await searches.value(forKey: movie.movieCode) { [api, provider] in
            let response = try await provider.send(api.posterSearch(title: movie.title))
            return response.documents.first?.imageURL ?? ""
        }
        guard !found.isEmpty, let url = URL(string: found) else { return nil }
        let image = try await images.lookup(forKey: url.absoluteString) { [api, provider] in
            try await provider.send(api.image(at: url))
        }
        let source: PosterSource =
            switch image.source {
            case .memory: .memory
            case .disk: .disk
            case .loader: .network
            }
        return Poster(
            url: url, file: images.disk.fileURL(forKey: url.absoluteString), byteCount: image.value.count,
            source: source)
    }
}
