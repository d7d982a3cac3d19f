import Foundation
import NetworkLayer
import TestSupport
import Testing

@testable import BoxOffice

/// However much a server sends, the app keeps what it promises to show, and says what it dropped.
@Suite("The app core: caps on what a server sends")
struct CapTests {
    /// KOBIS's chart, as `count` rows ranked 1…count, sent best first or, `reversed`, worst first.
    func chart(rows count: Int, reversed: Bool = false) throws -> KobisDailyBoxOfficeResponse {
        let ranks = reversed ? Array((1...count).reversed()) : Array(1...count)
        let rows = ranks.map { rank in
            #"{"rnum":"\#(rank)","rank":"\#(rank)","rankInten":"0","rankOldAndNew":"OLD","movieCd":"\#(20_000_000 + rank)","movieNm":"Film \#(rank)","openDt":"2026-01-01","salesAmt":"1","salesShare":"1.0","salesInten":"0","salesChange":"0","salesAcc":"1","audiCnt":"1","audiInten":"0","audiChange":"0","audiAcc":"1","scrnCnt":"1","showCnt":"1"}"#
        }
        let json =
            #"{"boxOfficeResult":{"boxofficeType":"일별 박스오피스","showRange":"20261120~20261120","dailyBoxOfficeList":["#
            + rows.joined(separator: ",") + "]}}"
        return try JSONDecoder().decode(KobisDailyBoxOfficeResponse.self, from: Data(json.utf8))
    }

    @Test func aChartKeepsItsTopTenAndCountsTheRowsDropped() throws {
        // Given a server sending 2,000 rows for a day
        let response = try chart(rows: 2_000)
        // When
        let mapped = try DailyBoxOffice(day: day("2026-11-20"), response: response)
        // Then
        #expect(mapped.entries.map(\.rank) == Array(1...10))
        #expect(mapped.omittedEntries == 1_990)
    }

    @Test func theTopTenAreTheBestRanksWhateverOrderTheyCameIn() throws {
        // Given 50 rows sent worst rank first
        let response = try chart(rows: 50, reversed: true)
        // When
        let mapped = try DailyBoxOffice(day: day("2026-11-20"), response: response)
        // Then
        #expect(mapped.entries.map(\.rank) == Array(1...10))
        #expect(mapped.entries.first?.title == "Film 1")
        #expect(mapped.omittedEntries == 40)
    }

    @Test func aChartOfTenDropsNothing() throws {
        let mapped = try DailyBoxOffice(day: day("2026-11-20"), response: try chart(rows: 10))
        #expect(mapped.entries.count == 10)
        #expect(mapped.omittedEntries == 0)
        #expect(ChartNotes.omitted(mapped) == nil)
    }

    @Test func theNoteSaysHowManyRowsWereDropped() throws {
        let mapped = try DailyBoxOffice(day: day("2026-11-20"), response: try chart(rows: 12))
        #expect(
            ChartNotes.omitted(mapped)
                == "the chart for 2026-11-20 had 2 rows beyond its top 10; they are left out")
    }

    @Test func aSearchKeepsTheFilmsAskedForAndCountsEverySentFilm() throws {
        // Given a server answering a search for 20 films with 5,000
        let films = (0..<5_000).map { #"{"movieCd":"\#(20_000_000 + $0)","movieNm":"서울 \#($0)"}"# }
        let json = #"{"movieListResult":{"totCnt":3,"movieList":["# + films.joined(separator: ",") + "]}}"
        let response = try JSONDecoder().decode(KobisMovieListResponse.self, from: Data(json.utf8))
        // When
        let result = try MovieSearchResult(query: "서울", response: response, limit: 20)
        // Then
        #expect(result.movies.count == 20)
        #expect(result.totalCount == 5_000)
    }

    @Test func theReportOfAFloodedChartAsksForTenFilmsAtMost() async throws {
        // Given a chart repository whose server sent 2,000 rows, and repositories that count calls
        let mapped = try DailyBoxOffice(day: day("2026-11-20"), response: try chart(rows: 2_000))
        let calls = Recorder<String>()
        let viewModel = await BoxOfficeReportViewModel(
            charts: FixedChart(chart: mapped), movies: CountingMovies(calls: calls),
            posters: CountingPosters(calls: calls))
        // When
        await viewModel.load(day("2026-11-20"))
        // Then ten films' details and posters are asked for, and the first problem says what was dropped
        #expect(calls.values.filter { $0 == "details" }.count == 10)
        #expect(calls.values.filter { $0 == "poster" }.count == 10)
        let problems = await viewModel.problems.value
        #expect(problems.first?.contains("1990 rows beyond its top 10") == true)
    }
}

struct FixedChart: BoxOfficeRepository {
    let chart: DailyBoxOffice
    func dailyBoxOffice(for day: Day) async throws -> DailyBoxOffice { chart }
}

struct CountingMovies: MovieRepository {
    let calls: Recorder<String>
    func movieDetails(code: String) async throws -> MovieDetails {
        calls.append("details")
        throw BoxOfficeError.unreachable("offline")
    }
}

struct CountingPosters: PosterProviding {
    let calls: Recorder<String>
    func poster(movieCode: String, title: String) async throws -> Poster? {
        calls.append("poster")
        return nil
    }
}

/// What a person is told when KOBIS has no such film, or answers in a form the app cannot read.
@Suite("The app core: messages that name the problem")
struct ProblemMessageTests {
    func movieDetailsFailure(answer: String) async -> String {
        let repository = KobisBoxOfficeRepository(
            api: KobisAPI(key: "k"), provider: NetworkProvider(session: .json(answer)))
        do {
            _ = try await repository.movieDetails(code: "99999999")
            return "no error"
        } catch {
            return ErrorMessage.describe(error)
        }
    }

    @Test func anEmptyMovieInfoSaysKobisHasNoSuchFilm() async {
        let message = await movieDetailsFailure(
            answer: #"{"movieInfoResult":{"movieInfo":{},"source":"영화진흥위원회"}}"#)
        #expect(message == "KOBIS has no film with the code 99999999")
    }

    @Test func kobisFault320011SaysKobisHasNoSuchFilm() async {
        let message = await movieDetailsFailure(
            answer: #"{"faultInfo":{"message":"영화코드가 존재하지 않습니다.","errorCode":"320011"}}"#)
        #expect(message.hasPrefix("KOBIS has no film with that code"))
    }

    @Test func anAnswerThatDoesNotDecodeNamesTheServiceNotTheDecoderPath() async {
        let message = await movieDetailsFailure(answer: #"{"movieInfoResult":{"movieInfo":{"movieNm":"x"}}}"#)
        #expect(message == "KOBIS answered in a form the app cannot read (not the documented JSON)")
        #expect(!message.contains("movieInfoResult"))
    }
}
