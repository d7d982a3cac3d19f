import BoxOffice
import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Repositories over the stub session")
struct RepositoryTests {
    @Test func theDailyRequestCarriesTheKeyAndTheCompactDate() async throws {
        // Given
        let requests = Recorder<URLRequest>()
        let demoSession = try demo.session()
        let session = StubSession { request in
            requests.append(request)
            return try await demoSession.response(for: request)
        }
        let repository = KobisBoxOfficeRepository(
            api: KobisAPI(key: "K3Y"), provider: NetworkProvider(session: session))
        // When
        let chart = try await repository.dailyBoxOffice(for: day("2026-11-21"))
        // Then
        #expect(chart.entries.first?.title == "검은 바다")
        let url = try #require(requests.values.first?.url)
        #expect(url.path == "/kobisopenapi/webservice/rest/boxoffice/searchDailyBoxOfficeList.json")
        #expect(url.query == "key=K3Y&targetDt=20261121")
    }

    @Test func aKobisFaultSentWithHTTP200IsAKobisError() async {
        // Given
        let fault = #"{"faultInfo":{"message":"유효하지않은 키값입니다.","errorCode":"320010"}}"#
        let repository = KobisBoxOfficeRepository(
            api: KobisAPI(key: "bad"), provider: NetworkProvider(session: .json(fault)))
        // When
        var message = ""
        do {
            _ = try await repository.dailyBoxOffice(for: day("2026-11-21"))
        } catch {
            message = ErrorMessage.describe(error)
        }
        // Then
        #expect(message == "KOBIS error 320010: 유효하지않은 키값입니다.")
    }

    @Test func aKakaoErrorNamesItsTypeAndMessage() async throws {
        // Given a poster search that Kakao refuses
        let body = #"{"errorType":"AccessDeniedError","message":"wrong appKey(null) format"}"#
        let refusing = NetworkProvider(session: .json(body, status: 401))
        let folder = TemporaryFolder()
        let posters = PosterProvider(
            api: KakaoAPI(), searches: refusing, images: refusing, directory: folder.url)
        // When
        var message = ""
        do {
            _ = try await posters.poster(for: details("20261001", "별빛 우체국"))
        } catch {
            message = ErrorMessage.describe(error)
        }
        // Then
        #expect(message == "Kakao error 401 AccessDeniedError: wrong appKey(null) format")
    }

    @Test func aKobisNotFoundIsNotReportedAsAKakaoError() async {
        // Given a KOBIS endpoint answering 404 with a body shaped like Kakao's errors
        let body = #"{"errorType":"NotFound","message":"no route"}"#
        let repository = KobisBoxOfficeRepository(
            api: KobisAPI(key: "k"), provider: NetworkProvider(session: .json(body, status: 404)))
        // When
        var message = ""
        do {
            _ = try await repository.dailyBoxOffice(for: day("2026-11-21"))
        } catch {
            message = ErrorMessage.describe(error)
        }
        // Then
        #expect(message.hasPrefix("HTTP 404 from"))
        #expect(!message.contains("Kakao"))
    }
}

@Suite("PosterProvider: the disk cache, then the network")
struct PosterProviderTests {
    let folder = TemporaryFolder()

    /// The demo session, counting searches and downloads.
    func countingProvider(_ counts: Recorder<String>) throws -> NetworkProvider {
        let demoSession = try demo.session()
        return NetworkProvider(
            session: StubSession { request in
                counts.append(request.url?.host == DemoData.posterHost ? "download" : "search")
                return try await demoSession.response(for: request)
            })
    }

    @Test func theFirstRequestGoesToTheNetworkThenTheDiskCacheAlsoAfterARestart() async throws {
        // Given
        let counts = Recorder<String>()
        let movie = details("20261001", "별빛 우체국")
        let first = try PosterProvider(
            api: KakaoAPI(), searches: countingProvider(counts), images: countingProvider(counts),
            directory: folder.url)
        // When
        let fromNetwork = try await first.poster(for: movie)
        let fromCache = try await first.poster(for: movie)
        let restarted = try PosterProvider(
            api: KakaoAPI(), searches: countingProvider(counts), images: countingProvider(counts),
            directory: folder.url)
        let fromDisk = try await restarted.poster(for: movie)
        // Then
        #expect(fromNetwork?.source == .network)
        #expect(fromCache?.source == .disk)
        #expect(fromDisk?.source == .disk)
        #expect(counts.values == ["search", "download"])
        let file = try #require(fromDisk?.file)
        #expect(try Data(contentsOf: file).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func concurrentRequestsSearchAndDownloadOnce() async throws {
        // Given
        let counts = Recorder<String>()
        let provider = try PosterProvider(
            api: KakaoAPI(), searches: countingProvider(counts), images: countingProvider(counts),
            directory: folder.url)
        let movie = details("20261002", "서울 탈출")
        // When
        let sources = try await withThrowingTaskGroup(of: PosterSource?.self) { group in
            for _ in 0..<8 { group.addTask { try await provider.poster(for: movie)?.source } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Then
        #expect(sources.count == 8)
        #expect(counts.values.filter { $0 == "search" }.count == 1)
        #expect(counts.values.filter { $0 == "download" }.count == 1)
    }

    @Test func aFilmWithoutImagesHasNoPosterAndIsNotSearchedAgain() async throws {
        // Given the demo re-release nobody posted about
        let counts = Recorder<String>()
        let provider = try PosterProvider(
            api: KakaoAPI(), searches: countingProvider(counts), images: countingProvider(counts),
            directory: folder.url)
        let movie = details("20261014", "2001: 다시 보는 고전")
        // When
        let first = try await provider.poster(for: movie)
        let second = try await provider.poster(for: movie)
        // Then
        #expect(first == nil)
        #expect(second == nil)
        #expect(counts.values == ["search"])
    }
}

/// The details the poster provider needs: a code and a title.
func details(_ code: String, _ title: String) -> MovieDetails {
    MovieDetails(
        movieCode: code, title: title, englishTitle: "", openDate: nil, runtimeMinutes: nil,
        productionYear: nil, genres: [], directors: [], actors: [], nations: [], watchGrade: nil,
        companies: [])
}

/// Posters through the image provider's HTTP cache: revalidated with their host, shown stale offline,
/// never stored when they are not images.
@Suite("PosterProvider: posters through the HTTP cache")
struct PosterRevalidationTests {
    let folder = TemporaryFolder()

    /// A search finding `https://images.example/p.png`, and an image host that sends an ETag and
    /// `max-age=0`, answering `304` to a matching `If-None-Match`, or failing offline once `offline` is
    /// set; every image request's `If-None-Match` is recorded.
    func provider(
        imageBody: Data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), offline: OfflineFlag,
        validators: Recorder<String>,
        imageHeaders: [String: String] = ["ETag": "\"p1\"", "Cache-Control": "max-age=0"],
        imageURL: String = "https://images.example/p.png"
    ) -> PosterProvider {
        let search =
            #"{"documents":[{"image_url":""#
            + imageURL
            + #"","thumbnail_url":"","width":1,"height":1,"display_sitename":"","doc_url":"","collection":"","datetime":""}],"meta":{"is_end":true,"pageable_count":1,"total_count":1}}"#
        let session = StubSession { request in
            if request.url?.path.hasSuffix("/v2/search/image") == true {
                return (Data(search.utf8), try StubSession.makeResponse(for: request, status: 200))
            }
            if offline.isOn { throw URLError(.notConnectedToInternet) }
            let sent = request.value(forHTTPHeaderField: "If-None-Match") ?? ""
            validators.append(sent)
            let headers = imageHeaders
            let status = sent == "\"p1\"" ? 304 : 200
            return (
                status == 304 ? Data() : imageBody,
                try StubSession.makeResponse(for: request, status: status, headers: headers)
            )
        }
        let network = NetworkProvider(session: session)
        return PosterProvider(api: KakaoAPI(), searches: network, images: network, directory: folder.url)
    }

    @Test func aSecondLookRevalidatesThePosterWithItsHost() async throws {
        // Given a poster downloaded once, whose host says max-age=0
        let validators = Recorder<String>()
        let posters = provider(offline: OfflineFlag(), validators: validators)
        let movie = details("20261001", "별빛 우체국")
        let first = try await posters.poster(for: movie)
        // When it is asked for again
        let second = try await posters.poster(for: movie)
        // Then the host was asked with the ETag, said 304, and the stored image is shown
        #expect(first?.source == .network)
        #expect(second?.source == .revalidated)
        #expect(validators.values == ["", "\"p1\""])
        #expect(second?.imageData == first?.imageData)
    }

    @Test func aPosterItsHostAllowsToServeStaleWhileRevalidatingIsRevalidatedBeforeItIsShown() async throws {
        // Given a poster whose host allows a day of stale-while-revalidate (as CDNs often do)
        let validators = Recorder<String>()
        let posters = provider(
            offline: OfflineFlag(), validators: validators,
            imageHeaders: ["ETag": "\"p1\"", "Cache-Control": "max-age=0, stale-while-revalidate=86400"])
        let movie = details("20261001", "별빛 우체국")
        _ = try await posters.poster(for: movie)
        // When a one-shot run asks for it again
        let second = try await posters.poster(for: movie)
        // Then its host was asked before it was shown, and it is not labelled fresh from disk
        #expect(validators.values == ["", "\"p1\""])
        #expect(second?.source == .revalidated)
    }

    @Test(arguments: [
        "https://images.example/p.png#large", "https://images.example/p.png?token=abc123xyz",
        "https://images.example/p.png?X-Amz-Signature=0123456789abcdef",
    ])
    func aPosterKeptOnDiskIsSaidToBeOnDiskWhateverItsURLCarries(imageURL: String) async throws {
        // Given a poster whose URL has a fragment or a credential-like query item
        let posters = provider(offline: OfflineFlag(), validators: Recorder(), imageURL: imageURL)
        let movie = details("20261001", "별빛 우체국")
        // When it is downloaded, and asked for again
        let first = try await posters.poster(for: movie)
        let second = try await posters.poster(for: movie)
        // Then both name the file on disk that holds it
        #expect(first?.file != nil)
        #expect(second?.file != nil)
        #expect(second?.source != .memory)
    }

    @Test func aBrokenImageURLIsSearchedForAgainOnTheNextLook() async throws {
        // Given a search that found an image URL which now answers 404 (an expired signed URL)
        let searches = Recorder<String>()
        let search =
            #"{"documents":[{"image_url":"https://images.example/gone.png","thumbnail_url":"","width":1,"height":1,"display_sitename":"","doc_url":"","collection":"","datetime":""}],"meta":{"is_end":true,"pageable_count":1,"total_count":1}}"#
        let network = NetworkProvider(
            session: StubSession { request in
                if request.url?.path.hasSuffix("/v2/search/image") == true {
                    searches.append("search")
                    return (Data(search.utf8), try StubSession.makeResponse(for: request, status: 200))
                }
                return (Data(), try StubSession.makeResponse(for: request, status: 404))
            })
        let posters = PosterProvider(
            api: KakaoAPI(), searches: network, images: network, directory: folder.url)
        let movie = details("20261001", "별빛 우체국")
        // When the poster is asked for twice
        _ = try? await posters.poster(for: movie)
        _ = try? await posters.poster(for: movie)
        // Then the search ran again after the broken URL, instead of being kept 30 days
        #expect(searches.values.count == 2)
    }

    @Test func aPosterWhoseHostSendsNoCacheHeadersIsKeptWithoutAskingAgain() async throws {
        // Given a poster from a host that sends no Cache-Control, Expires, Last-Modified or ETag
        let validators = Recorder<String>()
        let posters = provider(offline: OfflineFlag(), validators: validators, imageHeaders: [:])
        let movie = details("20261001", "별빛 우체국")
        _ = try await posters.poster(for: movie)
        // When it is asked for again
        let second = try await posters.poster(for: movie)
        // Then the stored poster is shown without a second download
        #expect(validators.values.count == 1)
        #expect(second?.source != .network)
    }

    @Test func offlineTheStoredPosterIsShownStale() async throws {
        // Given a poster downloaded once, and then no network
        let offline = OfflineFlag()
        let posters = provider(offline: offline, validators: Recorder())
        let movie = details("20261001", "별빛 우체국")
        _ = try await posters.poster(for: movie)
        offline.turnOn()
        // When it is asked for again
        let shown = try await posters.poster(for: movie)
        // Then the stored poster is shown, marked stale
        #expect(shown?.source == .stale)
    }

    @Test func aBodyThatIsNotAnImageIsNeverStored() async throws {
        // Given an image host that answers with an HTML page
        let validators = Recorder<String>()
        let posters = provider(imageBody: Data("<html>".utf8), offline: OfflineFlag(), validators: validators)
        let movie = details("20261001", "별빛 우체국")
        // When it is asked for twice
        _ = try? await posters.poster(for: movie)
        _ = try? await posters.poster(for: movie)
        // Then the second asked again without a validator: nothing was stored
        #expect(validators.values == ["", ""])
    }
}

/// Whether the network is gone, set by the test.
final class OfflineFlag: @unchecked Sendable {
    // @unchecked Sendable: `on` is only read and written while holding `lock`.
    private let lock = NSLock()
    private var on = false

    var isOn: Bool { lock.withLock { on } }

    func turnOn() { lock.withLock { on = true } }
}
