import BoxOffice
import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Movie search through the KOBIS repository")
struct MovieSearchRepositoryTests {
    func repository(answering json: String, status: Int = 200) -> KobisBoxOfficeRepository {
        KobisBoxOfficeRepository(
            api: KobisAPI(key: "k"), provider: NetworkProvider(session: .json(json, status: status)))
    }

    @Test func theSearchRequestCarriesTheTitleThePageAndTheLimit() async throws {
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
        _ = try await repository.searchMovies(title: "서울 탈출", limit: 5)
        // Then
        let url = try #require(requests.values.first?.url)
        #expect(url.path == "/kobisopenapi/webservice/rest/movie/searchMovieList.json")
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.first { $0.name == "movieNm" }?.value == "서울 탈출")
        #expect(items.first { $0.name == "itemPerPage" }?.value == "5")
        #expect(items.first { $0.name == "curPage" }?.value == "1")
        #expect(items.first { $0.name == "key" }?.value == "K3Y")
    }

    @Test func theDemoDataAnswersSearchesOverItsOwnFilmsByKoreanOrEnglishTitle() async throws {
        // Given
        let repository = KobisBoxOfficeRepository(
            api: KobisAPI(key: "demo"), provider: NetworkProvider(session: try demo.session()))
        // When
        let korean = try await repository.searchMovies(title: "서울", limit: 20)
        let english = try await repository.searchMovies(title: "escape FROM", limit: 20)
        let none = try await repository.searchMovies(title: "없는 영화", limit: 20)
        // Then
        #expect(korean.movies.map(\.movieCode) == ["20261002"])
        #expect(korean.movies.first?.englishTitle == "Escape from Seoul")
        #expect(korean.movies.first?.openDate == day("2026-10-29"))
        #expect(korean.movies.first?.directors == ["정민호"])
        #expect(english.movies.map(\.movieCode) == ["20261002"])
        #expect(none.movies.isEmpty && none.totalCount == 0)
    }

    @Test func theLimitCutsThePageButNotTheTotal() async throws {
        // Given
        let repository = KobisBoxOfficeRepository(
            api: KobisAPI(key: "demo"), provider: NetworkProvider(session: try demo.session()))
        // When
        let result = try await repository.searchMovies(title: "the", limit: 2)
        // Then
        #expect(result.movies.count == 2)
        #expect(result.totalCount == 6)
    }

    @Test func kobisQuirksMapToTheDomain() async throws {
        // Given a blank open date and year, comma-separated genres with spaces, no directors, totCnt as a string
        let body = #"""
            {"movieListResult":{"totCnt":"3","source":"영화진흥위원회","movieList":[
              {"movieCd":"20184105","movieNm":" 말모이 ","movieNmEn":"","prdtYear":"","openDt":"",
               "genreAlt":"드라마, 코미디,","directors":[]}]}}
            """#
        // When
        let result = try await repository(answering: body).searchMovies(title: "말모이", limit: 10)
        // Then
        let movie = try #require(result.movies.first)
        #expect(movie.title == "말모이")
        #expect(movie.openDate == nil)
        #expect(movie.productionYear == nil)
        #expect(movie.genres == ["드라마", "코미디"])
        #expect(movie.directors.isEmpty)
        #expect(result.totalCount == 3)
    }

    @Test(arguments: [
        #"{"movieListResult":{"totCnt":-1,"movieList":[]}}"#,
        #"{"movieListResult":{"totCnt":1,"movieList":[{"movieCd":"1","movieNm":"a","openDt":"20261345"}]}}"#,
        #"{"movieListResult":{"totCnt":1e400,"movieList":[]}}"#,
        #"{"movieListResult":{"totCnt":"many","movieList":[]}}"#,
        #"<html>maintenance</html>"#,
    ])
    func aHostileAnswerIsAnUnreadableErrorNotACrash(body: String) async {
        // When
        let thrown = await #expect(throws: BoxOfficeError.self) {
            _ = try await repository(answering: body).searchMovies(title: "a", limit: 10)
        }
        // Then
        guard case .unreadable = thrown else {
            Issue.record("expected .unreadable, got \(String(describing: thrown))")
            return
        }
    }

    @Test func aKobisFaultIsARefusalInItsOwnWords() async {
        // Given
        let fault = #"{"faultInfo":{"message":"유효하지않은 키값입니다.","errorCode":"320010"}}"#
        // When
        let thrown = await #expect(throws: BoxOfficeError.self) {
            _ = try await repository(answering: fault).searchMovies(title: "a", limit: 10)
        }
        // Then
        #expect(thrown == .refused("KOBIS error 320010: 유효하지않은 키값입니다."))
    }

    @Test func aCancelledSearchThrowsCancellationNotAnError() async {
        // Given a search whose task is cancelled while the server is slow
        let slow = StubSession { request in
            try await Task.sleep(for: .seconds(30))
            return (Data(), try StubSession.makeResponse(for: request, status: 200))
        }
        let repository = KobisBoxOfficeRepository(
            api: KobisAPI(key: "k"), provider: NetworkProvider(session: slow))
        let task = Task { try await repository.searchMovies(title: "a", limit: 10) }
        // When
        task.cancel()
        // Then
        await #expect(throws: CancellationError.self) { _ = try await task.value }
    }
}
