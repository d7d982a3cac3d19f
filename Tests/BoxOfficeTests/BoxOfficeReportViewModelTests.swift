import BoxOffice
import Foundation
import TestSupport
import Testing

/// A chart of the given titles, one film per title, coded "1", "2", ….
struct StubCharts: BoxOfficeRepository {
    var titles: [String] = ["첫째", "둘째", "셋째"]
    var failure: BoxOfficeError?
    var origin: DataOrigin = .network
    func dailyBoxOffice(for day: Day) async throws -> DailyBoxOffice {
        if let failure { throw failure }
        return DailyBoxOffice(
            day: day,
            entries: titles.enumerated().map { index, title in
                DailyBoxOfficeEntry(
                    rank: index + 1, rankChange: 0, isNew: false, movieCode: "\(index + 1)", title: title,
                    openDate: nil, audienceCount: 10, audienceAccumulated: 20, salesAmount: 1,
                    salesAccumulated: 1,
                    salesShare: 1, screenCount: 1, showCount: 1)
            }, origin: origin)
    }
}

/// Details for every code but the failing ones.
struct SelectiveMovies: MovieRepository {
    var failing: Set<String> = []
    var origin: DataOrigin = .network
    func movieDetails(code: String) async throws -> MovieDetails {
        if failing.contains(code) { throw BoxOfficeError.refused("no film \(code)") }
        return MovieDetails(
            movieCode: code, title: "film \(code)", englishTitle: "", openDate: nil, runtimeMinutes: nil,
            productionYear: nil, genres: [], directors: [], actors: [], nations: [], watchGrade: nil,
            companies: [], origin: origin)
    }
}

/// A poster for every film, recording the code and title each search was for.
struct TitlePosters: PosterProviding {
    let searched: Recorder<String>
    func poster(movieCode: String, title: String) async throws -> Poster? {
        searched.append("\(movieCode) \(title)")
        let url = try #require(URL(string: "https://images.example/\(movieCode).png"))
        return Poster(url: url, file: nil, imageData: Data([0x89, 0x50, 0x4E, 0x47]), source: .network)
    }
}

@MainActor
@Suite("BoxOfficeReportViewModel")
struct BoxOfficeReportViewModelTests {
    @Test func everyFilmOfTheChartIsInTheReportInRankOrderWithDetails() async {
        // Given
        let viewModel = BoxOfficeReportViewModel(
            charts: StubCharts(), movies: SelectiveMovies(), posters: StubPosters(result: .success(nil)))
        // When
        await viewModel.load(day("2026-11-21"))
        // Then
        let report = viewModel.report.value
        #expect(report?.day == day("2026-11-21"))
        #expect(report?.films.map(\.entry.title) == ["첫째", "둘째", "셋째"])
        #expect(report?.films.map { $0.details?.movieCode } == ["1", "2", "3"])
        #expect(viewModel.problems.value.isEmpty)
    }

    @Test func aFilmWhoseDetailsFailStaysInTheReportAndIsListedAsAProblem() async {
        // Given
        let viewModel = BoxOfficeReportViewModel(
            charts: StubCharts(), movies: SelectiveMovies(failing: ["2"]),
            posters: StubPosters(result: .success(nil)))
        // When
        await viewModel.load(day("2026-11-21"))
        // Then
        #expect(viewModel.report.value?.films.map { $0.details == nil } == [false, true, false])
        #expect(viewModel.problems.value == ["둘째: details unavailable: no film 2"])
    }

    @Test func aFilmWhoseDetailsFailStillGetsItsPosterByTheChartsTitle() async throws {
        // Given a film whose details fail, and a poster search that finds every title
        let searched = Recorder<String>()
        let viewModel = BoxOfficeReportViewModel(
            charts: StubCharts(titles: ["하나", "둘"]), movies: SelectiveMovies(failing: ["2"]),
            posters: TitlePosters(searched: searched))
        // When
        await viewModel.load(day("2026-11-21"))
        // Then the film without details has its poster, found by the title the chart gave
        let films = try #require(viewModel.report.value?.films)
        #expect(films[1].details == nil)
        #expect(films[1].poster != nil)
        #expect(Set(searched.values) == ["1 film 1", "2 둘"])
        #expect(viewModel.problems.value == ["둘: details unavailable: no film 2"])
    }

    @Test func aPosterThatFailsIsAProblemNotAFailure() async {
        // Given
        let viewModel = BoxOfficeReportViewModel(
            charts: StubCharts(titles: ["하나"]), movies: SelectiveMovies(),
            posters: StubPosters(result: .failure(StubFailure())))
        // When
        await viewModel.load(day("2026-11-21"))
        // Then
        #expect(viewModel.report.value?.films.count == 1)
        #expect(viewModel.problems.value == ["하나: poster unavailable: the stub failed"])
    }

    @Test func aChartThatFailsFailsTheReport() async {
        // Given
        let viewModel = BoxOfficeReportViewModel(
            charts: StubCharts(failure: .unreachable("KOBIS did not answer")), movies: SelectiveMovies(),
            posters: StubPosters(result: .success(nil)))
        // When
        await viewModel.load(day("2026-11-21"))
        // Then
        #expect(viewModel.report.value == nil)
        #expect(viewModel.errorMessage.value == "KOBIS did not answer")
    }
}
