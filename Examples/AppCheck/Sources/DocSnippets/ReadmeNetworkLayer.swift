// swift-format-ignore-file
// The docs' code, laid out as the page shows it (see DocSnippets.swift).
import Foundation  //-
import NetworkLayer

extension ReadmeNetworkLayer {  //-
    static func tour(  //-
        kakaoRESTKey: String, liveScores: Endpoint<Data>, trailer: Endpoint<Data>, trailerURL: URL  //-
    ) async throws {  //-
        let kakao = EndpointGroup(baseURL: URL(string: "https://dapi.kakao.com")!)
        let search: Endpoint<ImageSearchResponse> = kakao.get("v2/search/image", query: ["query": "광해 영화 포스터"])

        let provider = NetworkProvider(middlewares: [
            AuthorizationMiddleware(for: kakao, scheme: "KakaoAK") { kakaoRESTKey },   // only kakao's host
            RetryMiddleware(),
        ])
        let images = try await provider.send(search)      // typed; errors are NetworkError, cancellation is CancellationError

        for try await event in try await provider.stream(liveScores).events() { print(event.data) }   // server-sent events
        let file = try await provider.download(trailer, to: trailerURL) { print($0.fractionCompleted ?? 0) }
        print(trailer.cURLDescription())                   // a curl command, secrets hidden
        _ = (images, file)  //-
    }  //-
}  //-

/// The type the README's NetworkLayer tour decodes.
enum ReadmeNetworkLayer {
    nonisolated struct ImageSearchResponse: Decodable, Sendable {
        let documents: [Document]
        nonisolated struct Document: Decodable, Sendable { let image_url: String }
    }
}
