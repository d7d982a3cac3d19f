import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
        var search = group.get(
            "v2/search/image", query: ["query": "\(title) 영화 포스터", "size": "1"],
            as: KakaoImageSearchResponse.self)
        // One result is a few hundred bytes; a server sending more is cut off while the body arrives.
        search.maximumResponseSize = KobisAPI.maximumResponseBytes
        return search
    }

    /// The `Authorization: KakaoAK <key>` middleware, for Kakao's host only.
    /// - Parameter key: The REST API key.
    public func authorization(key: String) -> AuthorizationMiddleware {
        AuthorizationMiddleware(for: group, scheme: "KakaoAK") { key }
    }

    /// An image's bytes. Send it through a provider without Kakao's credentials: the URL points at
    /// whichever site hosts the image.
    public func image(at url: URL) -> Endpoint<Data> {
        var image = Endpoint<Data>(url: url, timeout: group.timeout)
        // Enforced while the body arrives: a hostile image host cannot make the app hold more.
        image.maximumResponseSize = PosterProvider.maximumImageBytes
        return image
    }
}
