import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The KOBIS Open API's endpoints: one base URL and key, three response types.
public struct KobisAPI: Sendable {
    // A constant, valid URL literal (not caller input); `defaultBaseURLsAreValid` pins it in a test.
    /// `https://www.kobis.or.kr/kobisopenapi/webservice/rest`.
    public static let defaultBaseURL = URL(string: "https://www.kobis.or.kr/kobisopenapi/webservice/rest")!

    let group: EndpointGroup

    /// The largest answer read from KOBIS: 1 MiB. A day's chart is about 5 KB and a page of 100 films
    /// about 60 KB; a server sending more is cut off while the body arrives (`responseTooLarge`).
    public static let maximumResponseBytes = 1024 * 1024

    /// Creates the API for a key.
    /// - Parameters:
    ///   - baseURL: ``defaultBaseURL`` by default.
    ///   - key: The issued key, sent as the `key` query parameter.
    ///   - timeout: Each attempt's timeout; 15 seconds by default.
    public init(baseURL: URL = KobisAPI.defaultBaseURL, key: String, timeout: Duration = .seconds(15)) {
        group = EndpointGroup(
            baseURL: baseURL, credentialQueryItems: [URLQueryItem(name: "key", value: key)], timeout: timeout,
            validate: { data, response in try KobisError.check(data, response) })
    }

    /// The box office for `day`.
    public func dailyBoxOffice(for day: Day) -> Endpoint<KobisDailyBoxOfficeResponse> {
        bounded(group.get("boxoffice/searchDailyBoxOfficeList.json", query: ["targetDt": day.compact]))
    }

    /// The details of the film `code`.
    public func movieInfo(code: String) -> Endpoint<KobisMovieInfoResponse> {
        bounded(group.get("movie/searchMovieInfo.json", query: ["movieCd": code]))
    }

    /// The first page of films whose title contains `title`, `limit` of them (1 to 100).
    public func movieList(title: String, limit: Int) -> Endpoint<KobisMovieListResponse> {
        bounded(
            group.get(
                "movie/searchMovieList.json",
                query: ["movieNm": title, "curPage": "1", "itemPerPage": String(limit)]))
    }

    private func bounded<Response>(_ endpoint: Endpoint<Response>) -> Endpoint<Response> {
        var endpoint = endpoint
        endpoint.maximumResponseSize = Self.maximumResponseBytes
        return endpoint
    }
}
