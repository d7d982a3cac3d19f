// swift-format-ignore-file
// The docs' code, laid out as the page shows it (see DocSnippets.swift).
import Foundation  //-
#if canImport(FoundationNetworking)  //-
    import FoundationNetworking  //-
#endif  //-
import NetworkLayer

enum KobisAPI {
    static let group = EndpointGroup(
        baseURL: URL(string: "https://www.kobis.or.kr/kobisopenapi/webservice/rest")!,
        credentialQueryItems: [URLQueryItem(name: "key", value: kobisKey)],
        validate: KobisFault.check)                       // errors KOBIS sends with HTTP 200

    static func dailyBoxOffice(date: String) -> Endpoint<DailyBoxOfficeResponse> {
        group.get("boxoffice/searchDailyBoxOfficeList.json", query: ["targetDt": date])
    }
    static func movieInfo(code: String) -> Endpoint<MovieInfoResponse> {
        group.get("movie/searchMovieInfo.json", query: ["movieCd": code])
    }
}

func networkLayerGuideTour() async throws {  //-
    let provider = NetworkProvider(middlewares: [RetryMiddleware()])
    let daily = try await provider.send(KobisAPI.dailyBoxOffice(date: "20261121"))
    _ = daily  //-
}  //-

/// The scaffolding of the NetworkLayer guide's examples.
let kobisKey = "KOBIS_KEY"
nonisolated struct DailyBoxOfficeResponse: Decodable, Sendable {}
nonisolated struct MovieInfoResponse: Decodable, Sendable {}
nonisolated enum KobisFault {
    static func check(_ data: Data, _ response: HTTPURLResponse) throws {}
}

extension NetworkLayerGuide {  //-
    static func streaming(provider: NetworkProvider, api: URL) async throws {  //-
        let stream = try await provider.stream(Endpoint<Data>(baseURL: api, path: "scores/live"))
        for try await event in stream.events() where event.event == "score" {
            let score = try JSONDecoder().decode(Score.self, from: Data(event.data.utf8))
            show(score)
        }
    }  //-

    static func transfers(  //-
        provider: NetworkProvider, api: API, id: String, trailerURL: URL, posterURL: URL, pngBytes: Data  //-
    ) async throws {  //-
        let file = try await provider.download(api.trailer(id), to: trailerURL) { progress in
            print(progress.completedBytes, progress.expectedBytes ?? -1, progress.fractionCompleted ?? 0)
        }
        // file.url == trailerURL, file.byteCount, file.response, file.resumeCount

        let receipt: Receipt = try await provider.upload(api.uploadPoster(id), fromFile: posterURL) { progress in
            print(progress.fractionCompleted ?? 0)
        }
        let thumbnail: Receipt = try await provider.upload(api.uploadThumbnail(id), data: pngBytes)

        var form = MultipartFormData()
        form.append("Wonka", name: "title")
        form.append(contentsOf: posterURL, name: "poster", contentType: "image/png")   // read from disk when sent
        let created: Poster = try await provider.upload(api.createPoster(), multipart: form)
        _ = (file, receipt, thumbnail, created)  //-
    }  //-

    static func windows() {  //-
        var configuration = NetworkProvider.Configuration()
        configuration.downloadWindow = 32 << 20   // fewer requests, more memory; nil: one request
        let provider = NetworkProvider(configuration: configuration)
        _ = provider  //-
    }  //-

    static func recommendedOrder(logger: AppLogger, auth: Auth, api: EndpointGroup) -> NetworkProvider {  //-
        NetworkProvider(middlewares: [
            LoggingMiddleware { logger.debug("\($0)") },   // sees everything, including retries' total time
            TokenRefreshMiddleware { try await auth.refresh() },
            AuthorizationMiddleware(for: api) { try await auth.accessToken },   // api's host only
            RetryMiddleware(),                              // closest to the transport: each attempt has its own timeout
        ])
    }  //-
}  //-

/// The types the NetworkLayer guide's examples mention.
enum NetworkLayerGuide {
    nonisolated struct Score: Decodable, Sendable {}
    static func show(_ score: Score) {}
    nonisolated struct Receipt: Decodable, Sendable {}
    nonisolated struct Poster: Decodable, Sendable {}

    struct API: Sendable {
        let group = EndpointGroup(baseURL: URL(string: "https://api.example.com")!)
        func trailer(_ id: String) -> Endpoint<Data> { Endpoint(baseURL: group.baseURL, path: "trailers/\(id)") }
        func uploadPoster(_ id: String) -> Endpoint<Receipt> { group.post("posters/\(id)", json: ["id": id]) }
        func uploadThumbnail(_ id: String) -> Endpoint<Receipt> { group.post("thumbnails/\(id)", json: ["id": id]) }
        func createPoster() -> Endpoint<Poster> { group.post("posters", json: ["new": "1"]) }
    }

    nonisolated struct AppLogger: Sendable {
        func debug(_ message: String) {}
    }

    actor Auth {
        var accessToken: String { get async throws { "token" } }
        func refresh() async throws {}
    }
}

func networkLayerGuideBoundedPoster(provider: NetworkProvider, imageURL: URL) async throws {  //-
    var poster = Endpoint<Data>(url: imageURL)
    poster.maximumResponseSize = 10_000_000
    let bytes = try await provider.send(poster)
    _ = bytes  //-
}  //-

/// What the background example adds to (the app's list of downloaded trailers).
nonisolated final class TrailerLibrary: Sendable {  //-
    func add(_ file: URL) {}  //-
}  //-

@MainActor  //-
final class NetworkLayerGuideBackground {  //-
    let downloads = NetworkLayerGuideBackground.makeDownloads(library: TrailerLibrary())  //-

    nonisolated static func makeDownloads(library: TrailerLibrary) -> NetworkProvider {  //-
        #if canImport(FoundationNetworking)  //-
            let configuration = URLSessionConfiguration.ephemeral  //- Linux has no background configuration
        #else  //-
        let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.app.downloads")
        #endif  //-
        let downloads = NetworkProvider(
            sessionConfiguration: configuration,
            finishedInBackground: { transfer in
                // A download that ended while the app was not running: its file is in place.
                if case .download(let file) = transfer.kind, transfer.error == nil { library.add(file) }
            })
        return downloads  //-
    }  //-

    nonisolated static func makeWidgetConfiguration() -> URLSessionConfiguration? {  //-
        #if canImport(FoundationNetworking)  //-
            return nil  //- Linux has no background configuration, and sharedContainerIdentifier is read-only
        #else  //-
        let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.app.widget.downloads")
        configuration.sharedContainerIdentifier = "group.com.example.app"
        return configuration  //-
        #endif  //-
    }  //-

    func download(trailer: Endpoint<Data>, to trailerURL: URL) async throws {  //-
        let file = try await downloads.download(trailer, to: trailerURL)
        _ = file  //-
    }  //-

    /// UIKit's `application(_:handleEventsForBackgroundURLSession:completionHandler:)`, as the page shows it.
    func application(handleEventsForBackgroundURLSession identifier: String, completionHandler: @escaping () -> Void) {  //-
        if !downloads.handleBackgroundEvents(forSession: identifier, completionHandler: completionHandler) {
            completionHandler()
        }
    }  //-
}  //-

func networkLayerGuideCredentials(passphrase: String, apiKey: String) {  //-
  let exchange = EndpointGroup(
      baseURL: URL(string: "https://api.exchange.example")!,
      credentialHeaders: ["CB-ACCESS-PASSPHRASE": passphrase],
      credentialQueryItems: [URLQueryItem(name: "key", value: apiKey)])
  var configuration = NetworkProvider.Configuration()
  configuration.credentialHeaders = ["X-Desk-Signature"]  // set by a middleware of yours
    _ = (exchange, configuration)  //-
}  //-

func networkLayerGuideRunningTransfers(downloads: NetworkProvider) async {  //-
  for transfer in await downloads.runningTransfers() where transfer.endpoint == "GET trailer" {
      transfer.cancel()
  }
}  //-

/// The account the guide's "App and extensions" example refreshes.
protocol GroupAccount: Sendable {
    func refreshTokens() async throws
}

func networkLayerGuideAppAndExtensions(group: URL, account: any GroupAccount) {  //-
    let refresh = TokenRefreshMiddleware(sharedAcross: SharedRefresh(folder: group)) {
        try await account.refreshTokens()   // stores both tokens where every process reads them
    }
    _ = refresh  //-
}  //-
