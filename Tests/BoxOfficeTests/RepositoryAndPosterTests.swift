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

@Suite("PosterProvider: memory, then disk, then network")
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

    @Test func theFirstRequestGoesToTheNetworkThenMemoryThenDiskAfterARestart() async throws {
        // Given
        let counts = Recorder<String>()
        let movie = details("20261001", "별빛 우체국")
        let first = try PosterProvider(
            api: KakaoAPI(), searches: countingProvider(counts), images: countingProvider(counts),
            directory: folder.url)
        // When
        let fromNetwork = try await first.poster(for: movie)
        let fromMemory = try await first.poster(for: movie)
        let restarted = try PosterProvider(
            api: KakaoAPI(), searches: countingProvider(counts), images: countingProvider(counts),
            directory: folder.url)
        let fromDisk = try await restarted.poster(for: movie)
        // Then
        #expect(fromNetwork?.source == .network)
        #expect(fromMemory?.source == .memory)
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
