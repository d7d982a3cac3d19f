import CacheKit
import Foundation
import NetworkLayer

/// Posters through CacheKit: the image URL a search found, and the image itself, each cached in memory
/// and on disk, each loaded once however many callers ask at the same time.
///
/// A second run finds both on disk and touches no network. When the cache folder cannot be used, the
/// provider warns once and keeps posters in memory only: a poster is never a reason to fail.
///
/// What a server returns is checked before it is cached: only an `http`/`https` image URL is followed,
/// and only a body of at most ``maximumImageBytes`` that starts like a PNG, JPEG, GIF or WebP file is kept.
public final class PosterProvider: PosterProviding {
    /// The largest image kept: 10 MB.
    public static let maximumImageBytes = 10 * 1024 * 1024

    private let api: KakaoAPI
    private let searchProvider: NetworkProvider
    private let imageProvider: NetworkProvider
    /// Image URL by movie code (an empty string when the search found nothing).
    private let searches: PosterStore<String>
    /// Image bytes by image URL.
    private let images: PosterStore<Data>

    /// Creates the provider.
    /// - Parameters:
    ///   - api: Kakao's endpoints.
    ///   - searches: Sends the image search (with the `KakaoAK` authorization).
    ///   - images: Downloads the images, from whatever site hosts them; it must carry no credentials.
    ///   - directory: Where the caches keep their files.
    ///   - clock: The caches' time source; the system clock by default.
    ///   - warn: Told once, in words, when the folder cannot be used and posters stay in memory.
    public init(
        api: KakaoAPI, searches: NetworkProvider, images: NetworkProvider, directory: URL,
        clock: CacheClock = .system, warn: @Sendable (String) -> Void = { _ in }
    ) {
        self.api = api
        self.searchProvider = searches
        self.imageProvider = images
        let (searchStore, searchProblem) = PosterStore<String>.make(
            memory: MemoryStorage(configuration: .init(sweepInterval: nil), clock: clock),
            disk: .init(directory: directory.appendingPathComponent("searches"), expiration: .days(30)),
            clock: clock)
        let (imageStore, imageProblem) = PosterStore<Data>.make(
            memory: MemoryStorage(
                configuration: .init(totalCostLimit: 32 * 1024 * 1024, sweepInterval: nil), clock: clock),
            disk: .init(
                directory: directory.appendingPathComponent("images"), sizeLimit: 200 * 1024 * 1024,
                expiration: .days(30)),
            clock: clock)
        self.searches = searchStore
        self.images = imageStore
        if let problem = searchProblem ?? imageProblem {
            warn("the poster cache folder cannot be used, so posters are kept in memory only: \(problem)")
        }
    }

    /// The poster of `movie`, or `nil` when no image is found.
    /// - Throws: ``BoxOfficeError`` for a Kakao error, an image URL that is not http(s), a body that is
    ///   not an image or is too large, or a network failure.
    public func poster(for movie: MovieDetails) async throws -> Poster? {
        try await DataErrors.translating { try await findPoster(for: movie) }
    }

    private func findPoster(for movie: MovieDetails) async throws -> Poster? {
        let (found, _) = try await searches.value(forKey: movie.movieCode) { [api, searchProvider] in
            do {
                let response = try await searchProvider.send(api.posterSearch(title: movie.title))
                return response.documents.first?.imageURL ?? ""
            } catch let NetworkError.unacceptableStatus(failure) {
                guard let kakao = failure.decodeBody(as: KakaoErrorBody.self) else {
                    throw NetworkError.unacceptableStatus(failure)
                }
                throw PosterError.kakao(
                    status: failure.statusCode, type: kakao.errorType, message: kakao.message)
            }
        }
        guard !found.isEmpty, let url = URL(string: found) else { return nil }
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
            throw PosterError.unsupportedURL(scheme: url.scheme ?? "")
        }
        let (image, source) = try await images.value(forKey: url.absoluteString) { [api, imageProvider] in
            let data = try await imageProvider.send(api.image(at: url))
            try PosterError.checkImage(data, limit: Self.maximumImageBytes)
            return data
        }
        return Poster(
            url: url, file: images.file(forKey: url.absoluteString), imageData: image, source: source)
    }
}

/// Why a poster could not be had.
public enum PosterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Kakao refused the search.
    case kakao(status: Int, type: String, message: String)
    /// The image URL found is not http or https.
    case unsupportedURL(scheme: String)
    /// The body is not a PNG, JPEG, GIF or WebP image.
    case notAnImage
    /// The body is larger than the limit.
    case tooLarge(bytes: Int, limit: Int)

    /// One line for a person.
    public var description: String {
        switch self {
        case .kakao(let status, let type, let message): "Kakao error \(status) \(type): \(message)"
        case .unsupportedURL(let scheme): "the image URL's scheme \"\(scheme)\" is not http or https"
        case .notAnImage: "the image URL did not return a PNG, JPEG, GIF or WebP image"
        case .tooLarge(let bytes, let limit): "the image is \(bytes) bytes, more than the \(limit) allowed"
        }
    }

    /// Throws unless `data` is at most `limit` bytes and starts like an image file.
    static func checkImage(_ data: Data, limit: Int) throws(PosterError) {
        guard data.count <= limit else { throw .tooLarge(bytes: data.count, limit: limit) }
        guard Poster.mediaType(of: data) != nil else { throw .notAnImage }
    }
}
