import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The KOBIS Open API's endpoints: one base URL and key, two response types.
public struct KobisAPI: Sendable {
    // A constant, valid URL literal (not caller input); `defaultBaseURLsAreValid` pins it in a test.
    /// `https://www.kobis.or.kr/kobisopenapi/webservice/rest`.
    public static let defaultBaseURL = URL(string: "https://www.kobis.or.kr/kobisopenapi/webservice/rest")!

    let group: EndpointGroup

    /// Creates the API for a key.
    /// - Parameters:
    ///   - baseURL: ``defaultBaseURL`` by default.
    ///   - key: The issued key, sent as the `key` query parameter.
    ///   - timeout: Each attempt's timeout; 15 seconds by default.
    public init(baseURL: URL = KobisAPI.defaultBaseURL, key: String, timeout: Duration = .seconds(15)) {
        group = EndpointGroup(
            baseURL: baseURL, queryItems: [URLQueryItem(name: "key", value: key)], timeout: timeout,
            validate: { data, response in try KobisError.check(data, response) })
    }

    /// The box office for `day`.
    public func dailyBoxOffice(for day: Day) -> Endpoint<KobisDailyBoxOfficeResponse> {
        group.get("boxoffice/searchDailyBoxOfficeList.json", query: ["targetDt": day.compact])
    }

    /// The details of the film `code`.
    public func movieInfo(code: String) -> Endpoint<KobisMovieInfoResponse> {
        group.get("movie/searchMovieInfo.json", query: ["movieCd": code])
    }
}

/// Kakao's image search, and poster downloads.
public struct KakaoAPI: Sendable {
    // A constant, valid URL literal (not caller input); `defaultBaseURLsAreValid` pins it in a test.
    /// `https://dapi.kakao.com`.
    public static let defaultBaseURL = URL(string: "https://dapi.kakao.com")!

    let group: EndpointGroup

    /// Creates the API. The `Authorization: KakaoAK …` header comes from a middleware.
    /// - Parameters:
    ///   - baseURL: ``defaultBaseURL`` by default.
    ///   - timeout: Each attempt's timeout, the search's and the downloads'; 10 seconds by default.
    public init(baseURL: URL = KakaoAPI.defaultBaseURL, timeout: Duration = .seconds(10)) {
        group = EndpointGroup(baseURL: baseURL, timeout: timeout)
    }

    /// The poster search for a film: `"<title> 영화 포스터"`, one result.
    public func posterSearch(title: String) -> Endpoint<KakaoImageSearchResponse> {
        group.get("v2/search/image", query: ["query": "\(title) 영화 포스터", "size": "1"])
    }

    /// The `Authorization: KakaoAK <key>` middleware, for Kakao's host only.
    /// - Parameter key: The REST API key.
    public func authorization(key: String) -> AuthorizationMiddleware {
        AuthorizationMiddleware(for: group, scheme: "KakaoAK") { key }
    }

    /// An image's bytes. Send it through a provider without Kakao's credentials: the URL points at
    /// whichever site hosts the image.
    public func image(at url: URL) -> Endpoint<Data> {
        Endpoint<Data>(baseURL: url, timeout: group.timeout)
    }
}
