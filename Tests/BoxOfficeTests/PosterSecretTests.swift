import BoxOffice
import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// No key of the run leaves for a host it was not issued for, nor reaches a cache file, through a
/// poster: not in an image URL a search result names, not in a title sent to the search.
@Suite("The poster provider: keys stay home")
struct PosterSecretTests {
    static let kobisKey = "KOBISKEY0123456789"
    static let kakaoKey = "KAKAOKEY0123456789"

    /// A provider whose search answers with `imageURL`, recording every URL requested.
    func provider(imageURL: String, requests: Recorder<String>, folder: URL) -> PosterProvider {
        let search =
            #"{"documents":[{"image_url":"\#(imageURL)","thumbnail_url":"","width":1,"height":1,"display_sitename":"","doc_url":"","collection":"","datetime":""}],"meta":{"is_end":true,"pageable_count":1,"total_count":1}}"#
        let session = StubSession { request in
            requests.append(request.url?.absoluteString ?? "")
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let body = request.url?.path.hasSuffix("/v2/search/image") == true ? Data(search.utf8) : png
            return (body, try StubSession.makeResponse(for: request, status: 200))
        }
        let network = NetworkProvider(session: session)
        return PosterProvider(
            api: KakaoAPI(), searches: network, images: network, directory: folder,
            secrets: [Self.kobisKey, Self.kakaoKey])
    }

    /// Every file under `folder`, read whole.
    func cacheFiles(_ folder: URL) -> [Data] {
        let files =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? []
        return files.compactMap { try? Data(contentsOf: $0) }
    }

    @Test(arguments: [
        "https://images.example/poster.png?k=\(kobisKey)", "https://images.example/\(kakaoKey).png",
        "https://images.example/poster.png?k=KOBISKEY%30123456789",
        "https://user:\(kobisKey)@images.example/p.png",
        "https://someone@images.example/p.png",
        // One escape that does not decode must not stop the others from being decoded.
        "https://images.example/p.png?x=%FF&k=%4BOBISKEY0123456789",
        // Issued keys are hexadecimal: another letter case carries the same key, in a host name too.
        "https://kobiskey0123456789.evil.example/p.png", "https://images.example/p.png?k=kakaokey0123456789",
    ])
    func anImageURLCarryingCredentialsIsNeitherFollowedNorCached(imageURL: String) async throws {
        // Given a search result naming an image URL that carries a key or a user
        let requests = Recorder<String>()
        let folder = TemporaryFolder()
        let posters = provider(imageURL: imageURL, requests: requests, folder: folder.url)
        // When
        var message = ""
        do {
            _ = try await posters.poster(movieCode: "20261001", title: "별빛 우체국")
        } catch {
            message = ErrorMessage.describe(error)
        }
        // Then the poster is refused, in words, and only the search was sent
        #expect(
            message
                == "the image URL found carries a user name, a password or an API key, so it was not followed"
        )
        #expect(requests.values.count == 1)
        #expect(requests.values.allSatisfy { $0.contains("/v2/search/image") })
        // And no cache file holds the URL
        for file in cacheFiles(folder.url) {
            #expect(file.range(of: Data("images.example".utf8)) == nil)
        }
    }

    @Test func anImageURLCachedBeforeTheRuleIsNotFollowedEither() async throws {
        // Given a search cache written by a run that had no keys to check against
        let folder = TemporaryFolder()
        let carrying = "https://images.example/p.png?k=\(Self.kobisKey)"
        let before = Recorder<String>()
        let search =
            #"{"documents":[{"image_url":"\#(carrying)","thumbnail_url":"","width":1,"height":1,"display_sitename":"","doc_url":"","collection":"","datetime":""}],"meta":{"is_end":true,"pageable_count":1,"total_count":1}}"#
        let session = StubSession { request in
            before.append(request.url?.absoluteString ?? "")
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let body = request.url?.path.hasSuffix("/v2/search/image") == true ? Data(search.utf8) : png
            return (body, try StubSession.makeResponse(for: request, status: 200))
        }
        let unchecked = PosterProvider(
            api: KakaoAPI(), searches: NetworkProvider(session: session),
            images: NetworkProvider(session: session),
            directory: folder.url)
        _ = try await unchecked.poster(movieCode: "20261001", title: "별빛 우체국")
        // When a run with the keys reads that entry from disk
        let requests = Recorder<String>()
        let checked = provider(
            imageURL: "https://images.example/clean.png", requests: requests, folder: folder.url)
        await #expect(throws: BoxOfficeError.self) {
            _ = try await checked.poster(movieCode: "20261001", title: "별빛 우체국")
        }
        // Then it neither searched again nor followed the cached URL
        #expect(requests.values.isEmpty)
    }

    @Test func aTitleCarryingAKeyIsNotSearchedFor() async throws {
        // Given a title a hostile KOBIS echoed the key into
        let requests = Recorder<String>()
        let folder = TemporaryFolder()
        let posters = provider(
            imageURL: "https://images.example/p.png", requests: requests, folder: folder.url)
        // When
        await #expect(throws: BoxOfficeError.self) {
            _ = try await posters.poster(movieCode: "20261001", title: "영화 \(Self.kobisKey)")
        }
        // Then nothing was sent to Kakao
        #expect(requests.values.isEmpty)
    }

    @Test func aTitleCarryingTwelveCharactersOfAKeyMidLineIsNotSearchedFor() async throws {
        // Given a title carrying the first 12 of the key's 18 characters, followed by more title
        let requests = Recorder<String>()
        let folder = TemporaryFolder()
        let posters = provider(
            imageURL: "https://images.example/p.png", requests: requests, folder: folder.url)
        // When
        await #expect(throws: BoxOfficeError.self) {
            _ = try await posters.poster(movieCode: "20261001", title: "영화 \(Self.kobisKey.prefix(12)) 속편")
        }
        // Then nothing was sent to Kakao
        #expect(requests.values.isEmpty)
    }

    @Test func aMovieCodeCarryingAKeyIsNeitherSearchedForNorKept() async throws {
        // Given a chart row whose code a hostile KOBIS echoed the Kakao key into
        let requests = Recorder<String>()
        let folder = TemporaryFolder()
        let posters = provider(
            imageURL: "https://images.example/p.png", requests: requests, folder: folder.url)
        // When
        await #expect(throws: BoxOfficeError.self) {
            _ = try await posters.poster(movieCode: Self.kakaoKey.lowercased(), title: "별빛 우체국")
        }
        // Then nothing was sent, and no cache file holds the key
        #expect(requests.values.isEmpty)
        for data in cacheFiles(folder.url) {
            #expect(data.range(of: Data(Self.kakaoKey.lowercased().utf8)) == nil)
        }
    }

    @Test func aCleanImageURLIsFollowedAndCached() async throws {
        // Given
        let requests = Recorder<String>()
        let folder = TemporaryFolder()
        let posters = provider(
            imageURL: "https://images.example/p.png", requests: requests, folder: folder.url)
        // When
        let poster = try await posters.poster(movieCode: "20261001", title: "별빛 우체국")
        // Then
        #expect(poster?.url.absoluteString == "https://images.example/p.png")
        #expect(requests.values.count == 2)
    }
}
