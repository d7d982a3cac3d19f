import CacheKit
import Foundation
import NetworkLayer

/// Posters: the image URL a search found, cached through CacheKit, and the image itself through the
/// image provider's HTTP cache (NetworkLayer's `HTTPCache`, on disk), so a poster is revalidated with its
/// host (`If-None-Match`, `If-Modified-Since`) when the host says it may have changed, not trusted
/// forever; each is loaded once however many callers ask at the same time.
///
/// A second run reads the search from disk, and the image too while its host says it is fresh; a stale
/// one costs a `304` when unchanged. Offline, a stored poster up to 30 days past its freshness is shown.
/// When the cache folder cannot be used, the provider warns once and keeps posters in memory only: a
/// poster is never a reason to fail.
///
/// What a server returns is checked before it is cached: only an `http`/`https` image URL is followed,
/// never one carrying a user name, a password or one of the run's keys (``CarriedSecrets``), and only a
/// body of at most ``maximumImageBytes`` that starts like a PNG, JPEG, GIF or WebP file is kept (the
/// image endpoint's `validate` hook, which the HTTP cache stores nothing without), and only when neither
/// its bytes nor its headers carry a key. A title carrying a key is not searched for, so no key leaves
/// for a host it was not issued for.
public final class PosterProvider: PosterProviding {
    /// The largest image kept: 10 MB.
    public static let maximumImageBytes = 10 * 1024 * 1024

    private let api: KakaoAPI
    private let searchProvider: NetworkProvider
    private let imageProvider: NetworkProvider
    /// Image URL by movie code (an empty string when the search found nothing).
    private let searches: TieredStore<String>
    /// Image bytes and headers, kept by the image provider's HTTP cache.
    private let images: PosterImageStore
    /// How stale a stored poster may be shown when its host cannot be reached: 30 days.
    public static let staleImageLimit: Duration = .seconds(30 * 86_400)
    /// How long a poster whose host says nothing of its freshness (no `Cache-Control`, `Expires` or
    /// `Last-Modified`) is kept fresh: 7 days, as an image viewer keeps images whatever the headers say.
    public static let assumedImageLifetime: Duration = .seconds(7 * 86_400)
    /// The run's keys, which no image URL or search may carry.
    private let secrets: CarriedSecrets
    /// What every cache key starts with: whose answers the entries are.
    private let scope: String
    /// How long "this film has no poster" is kept, from when the search answered (reads do not renew
    /// it): an hour, so a poster posted later shows on a run soon after.
    public static let noPosterLifetime: TimeInterval = 3_600
    private let clock: CacheClock
    /// Whether the posters are the demo's, drawn by the app: one not from the cache came from no host.
    private let isDemo: Bool

    /// Creates the provider.
    /// - Parameters:
    ///   - api: Kakao's endpoints.
    ///   - searches: Sends the image search (with the `KakaoAK` authorization).
    ///   - images: Downloads the images, from whatever site hosts them; it must carry no credentials. The
    ///     provider sends through its session, middlewares and configuration, with an HTTP cache of its
    ///     own (in `directory`) and identical downloads shared.
    ///   - directory: Where the caches keep their files.
    ///   - clock: The caches' time source; the system clock by default.
    ///   - secrets: The run's API keys: an image URL or a title carrying one is refused; none by default.
    ///   - scope: Whose answers the entries are (the mode and the base URLs of the search and of the
    ///     film codes): entries of another scope in the same folder are never read.
    ///   - warn: Told once, in words, when the folder cannot be used and posters stay in memory.
    ///   - isDemo: Whether the images are the demo's, drawn by the app: a poster not from the cache is
    ///     then ``PosterSource/demo``, never "from the network". `false` by default.
    public init(
        api: KakaoAPI, searches: NetworkProvider, images: NetworkProvider, directory: URL,
        clock: CacheClock = .system, secrets: [String] = [], scope: String = "",
        warn: @escaping @Sendable (String) -> Void = { _ in }, isDemo: Bool = false
    ) {
        self.isDemo = isDemo
        self.secrets = CarriedSecrets(secrets)
        self.scope = scope
        self.clock = clock
        self.api = api
        self.searchProvider = searches
        let failures = WriteFailures { problem in
            warn("the poster cache could not keep a poster, so posters may not be kept: \(problem)")
        }
        let (searchStore, searchProblem) = TieredStore<String>.make(
            memory: MemoryStorage(configuration: .init(sweepInterval: nil), clock: clock),
            disk: .init(directory: directory.appendingPathComponent("searches"), expiration: .days(30)),
            below: directory, clock: clock, failures: failures)
        let (imageStore, imageProblem) = PosterImageStore.make(
            directory: directory, below: directory, clock: clock, scope: scope, failures: failures)
        var configuration = images.configuration
        configuration.httpCache = HTTPCache(store: imageStore, now: clock.now)
        configuration.coalescesIdenticalGETs = true
        self.imageProvider = NetworkProvider(
            session: images.session, middlewares: images.middlewares, configuration: configuration)
        self.searches = searchStore
        self.images = imageStore
        if let problem = searchProblem ?? imageProblem {
            warn("the poster cache folder cannot be used, so posters are kept in memory only: \(problem)")
        }
    }

    /// The poster of the film `movieCode` titled `title`, or `nil` when no image is found.
    /// - Throws: ``BoxOfficeError`` for a Kakao error, an image URL that is not http(s) or carries
    ///   credentials, a title carrying a key, a body that is not an image or is too large, or a network
    ///   failure.
    public func poster(movieCode: String, title: String) async throws -> Poster? {
        try await DataErrors.translating { try await findPoster(movieCode: movieCode, title: title) }
    }

    private func findPoster(movieCode: String, title: String) async throws -> Poster? {
        guard !secrets.appear(in: title) else { throw PosterError.carriesCredentials(.title) }
        // The code becomes part of a cache file's key.
        guard !secrets.appear(in: movieCode) else { throw PosterError.carriesCredentials(.movieCode) }
        let searchKey = "\(scope) search \(movieCode)"
        let (found, _) = try await searches.value(forKey: searchKey) {
            [api, searchProvider, secrets, clock] in
            do {
                let response = try await searchProvider.send(api.posterSearch(title: title))
                let found = response.documents.first?.imageURL ?? ""
                // Checked before it is cached: a URL carrying a key, or one that cannot be followed, is
                // never written to a cache file; nothing found is kept briefly.
                guard !found.isEmpty else {
                    let until = clock.now().addingTimeInterval(Self.noPosterLifetime)
                    return LoadedValue(found, expiration: .date(until))
                }
                try Self.checkImageURL(found, secrets: secrets)
                return LoadedValue(found, expiration: nil)
            } catch let NetworkError.unacceptableStatus(failure) {
                guard let kakao = failure.decodeBody(as: KakaoErrorBody.self) else {
                    throw NetworkError.unacceptableStatus(failure)
                }
                throw PosterError.kakao(
                    status: failure.statusCode, type: kakao.errorType, message: kakao.message)
            }
        }
        guard !found.isEmpty else { return nil }
        // Checked again as read: an entry cached before this rule existed, or by another program, is
        // never followed either.
        let url = try Self.checkImageURL(found, secrets: secrets)
        var endpoint = api.image(at: url)
        // Checked before the HTTP cache keeps it: the cache stores only what the endpoint accepts. A
        // host that echoes a key (one it received as an API, in an ETag or inside the image) gets
        // nothing kept, shown or embedded in a report.
        endpoint.validate = { [secrets] data, response in
            try PosterError.checkImage(data, limit: Self.maximumImageBytes)
            try PosterError.checkCarriesNoKey(data, headers: response.allHeaderFields, secrets: secrets)
        }
        // A one-shot run ends before a background refresh would: a poster `stale-while-revalidate`
        // allows is revalidated before it is shown, so a replaced poster is not shown old on every run.
        endpoint.cachePolicy = .useProtocol.refreshingInForeground()
            .acceptingStaleOnError(upTo: Self.staleImageLimit).assumingLifetime(Self.assumedImageLifetime)
        let response: NetworkResponse<Data>
        do {
            response = try await KeysByURL.asking(for: url) {
                try await imageProvider.response(for: endpoint)
            }
        } catch NetworkError.unacceptableStatus(let failure)
            where [403, 404, 410].contains(failure.statusCode)
        {
            // The image URL the search found is broken (gone, or a signed URL that expired): the search is
            // forgotten, so the next look searches again instead of asking this URL for 30 days.
            await searches.remove(forKey: searchKey)
            throw NetworkError.unacceptableStatus(failure)
        }
        // Bytes read from disk are checked as the network's are: the folder is not trusted more.
        try PosterError.checkImage(response.value, limit: Self.maximumImageBytes)
        try PosterError.checkCarriesNoKey(
            response.value, headers: response.httpResponse.allHeaderFields, secrets: secrets)
        let file = images.file(forImageURL: url)
        let source = PosterSource(response.source, onDisk: images.isOnDisk)
        return Poster(
            url: url, file: file, imageData: response.value,
            source: isDemo && source == .network ? .demo : source)
    }

    /// `text` as an image URL to follow: http or https, carrying no user name, password or key.
    @discardableResult
    private static func checkImageURL(_ text: String, secrets: CarriedSecrets) throws -> URL {
        if secrets.appear(in: text) || CarriedSecrets.hasUserInfo(text) {
            throw PosterError.carriesCredentials(.imageURL)
        }
        guard let url = URL(string: text) else { throw PosterError.unsupportedURL(scheme: "") }
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
            throw PosterError.unsupportedURL(scheme: url.scheme ?? "")
        }
        return url
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
    /// The image URL found, or the title to search for, carries a user name, a password or one of the
    /// run's keys; it is not sent anywhere.
    case carriesCredentials(Carrier)

    /// What carried the credentials.
    public enum Carrier: Sendable, Equatable {
        /// The image URL the search found.
        case imageURL
        /// The film's title, which the search would send to Kakao.
        case title
        /// The film's code, which a cache file's key would hold.
        case movieCode
        /// The image's bytes or headers (an `ETag` echoing a key the host received as an API).
        case image
    }

    /// One line for a person.
    public var description: String {
        switch self {
        case .kakao(let status, let type, let message): "Kakao error \(status) \(type): \(message)"
        case .unsupportedURL(let scheme): "the image URL's scheme \"\(scheme)\" is not http or https"
        case .notAnImage: "the image URL did not return a PNG, JPEG, GIF or WebP image"
        case .tooLarge(let bytes, let limit): "the image is \(bytes) bytes, more than the \(limit) allowed"
        case .carriesCredentials(.imageURL):
            "the image URL found carries a user name, a password or an API key, so it was not followed"
        case .carriesCredentials(.title):
            "the film's title carries an API key, so it was not sent to the image search"
        case .carriesCredentials(.movieCode):
            "the film's code carries an API key, so its poster was not looked up"
        case .carriesCredentials(.image):
            "the image carries an API key in its bytes or headers, so it was neither kept nor shown"
        }
    }

    /// Throws unless neither `data` nor a header's name or value carries one of the run's keys whole (in
    /// any letter case, as is or percent-encoded): image bytes and hex validators (`ETag`s, XMP ids)
    /// would match a key's six-character fragments by chance, so only the whole key counts here.
    static func checkCarriesNoKey(
        _ data: Data, headers: [AnyHashable: Any], secrets: CarriedSecrets
    ) throws(PosterError) {
        let fields = headers.map { "\($0.key): \($0.value)" }.joined(separator: "\n")
        if secrets.appearWhole(in: data) || secrets.appearWhole(in: Data(fields.utf8)) {
            throw .carriesCredentials(.image)
        }
    }

    /// Throws unless `data` is at most `limit` bytes and starts like an image file.
    static func checkImage(_ data: Data, limit: Int) throws(PosterError) {
        guard data.count <= limit else { throw .tooLarge(bytes: data.count, limit: limit) }
        guard Poster.mediaType(of: data) != nil else { throw .notAnImage }
    }
}
