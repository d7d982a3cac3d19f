import BoxOffice
import Foundation
import TestSupport
import Testing

/// A report says where its chart and its films' details came from, and when, as `daily` and `movie` do.
@MainActor
@Suite("BoxOfficeReportViewModel: where the report's data came from")
struct ReportProvenanceTests {
    let saved = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18 11:06 UTC

    @Test func aChartFromTheCacheIsNotedWithWhenItWasSaved() async {
        // Given a chart read from the cache
        let viewModel = BoxOfficeReportViewModel(
            charts: StubCharts(origin: .cache(savedAt: saved)), movies: SelectiveMovies(),
            posters: StubPosters(result: .success(nil)))
        // When
        await viewModel.load(day("2026-11-21"))
        // Then the note says so, as daily's does, and the report keeps it
        #expect(
            viewModel.notes.value.contains(
                "the chart for 2026-11-21 came from the cache (saved 2026-11-18 11:06 UTC), not the network"))
        #expect(viewModel.report.value?.chartOrigin == .cache(savedAt: saved))
    }

    @Test func detailsFromTheCacheAreNotedWithHowManyAndWhen() async {
        // Given every film's details read from the cache
        let viewModel = BoxOfficeReportViewModel(
            charts: StubCharts(), movies: SelectiveMovies(origin: .cache(savedAt: saved)),
            posters: StubPosters(result: .success(nil)))
        // When
        await viewModel.load(day("2026-11-21"))
        // Then
        #expect(
            viewModel.notes.value == [
                "the details of 3 of 3 films came from the cache (saved 2026-11-18 11:06 UTC), not the network"
            ])
    }

    @Test func detailsShownAfterARefusedKeySayWhyNotThatTheNetworkWasNotAsked() async {
        // Given films' details kept past their freshness, shown because KOBIS refused the key
        let refused = "KOBIS refused the request: KOBIS error 320010: 유효하지않은 키값입니다."
        let viewModel = BoxOfficeReportViewModel(
            charts: StubCharts(),
            movies: SelectiveMovies(origin: .cacheAfterFailure(savedAt: saved, failure: refused)),
            posters: StubPosters(result: .success(nil)))
        // When
        await viewModel.load(day("2026-11-21"))
        // Then the note names the refusal
        #expect(
            viewModel.notes.value == [
                "the details of 3 of 3 films came from the cache (saved 2026-11-18 11:06 UTC) because \(refused)"
            ])
    }

    @Test func detailsSavedWithinOneMinuteReadAsOneTime() {
        // Given two films' details saved 10 seconds apart, in one minute
        func film(savedAt: Date) -> MovieDetails {
            MovieDetails(
                movieCode: "1", title: "t", englishTitle: "", openDate: nil, runtimeMinutes: nil,
                productionYear: nil,
                genres: [], directors: [], actors: [], nations: [], watchGrade: nil, companies: [],
                origin: .cache(savedAt: savedAt))
        }
        let details = [film(savedAt: saved), film(savedAt: saved.addingTimeInterval(10))]
        // When, Then the note gives one time, not "T to T"
        #expect(ChartNotes.cachedDetails(details)?.saved == "2026-11-18 11:06 UTC")
    }

    @Test func onlyTheDetailsThatStoodInForAFailureAreSaidToHave() {
        // Given three cached films' details, one of them shown because KOBIS could not be reached
        func film(_ origin: DataOrigin) -> MovieDetails {
            MovieDetails(
                movieCode: "1", title: "t", englishTitle: "", openDate: nil, runtimeMinutes: nil,
                productionYear: nil,
                genres: [], directors: [], actors: [], nations: [], watchGrade: nil, companies: [],
                origin: origin)
        }
        let details = [
            film(.cache(savedAt: saved)), film(.cache(savedAt: saved)),
            film(.cacheAfterFailure(savedAt: saved, failure: "KOBIS could not be reached: offline")),
        ]
        // When, Then the note says how many stood in for the failure
        #expect(
            ChartNotes.detailsOrigin(details)
                == "the details of 3 of 3 films came from the cache (saved 2026-11-18 11:06 UTC); 1 of them "
                + "because KOBIS could not be reached: offline")
    }

    @Test func aReportFromTheNetworkHasNoNotes() async {
        let viewModel = BoxOfficeReportViewModel(
            charts: StubCharts(), movies: SelectiveMovies(), posters: StubPosters(result: .success(nil)))
        await viewModel.load(day("2026-11-21"))
        #expect(viewModel.notes.value.isEmpty)
        #expect(viewModel.report.value?.chartOrigin == .network)
    }
}
