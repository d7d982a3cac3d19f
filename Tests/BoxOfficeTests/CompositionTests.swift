import BoxOffice
import DIKit
import Foundation
import NetworkLayer
import TestSupport
import Testing

@Suite("Composition root and coordinators")
struct CompositionTests {
    func offlineEnvironment(_ folder: TemporaryFolder) throws -> AppEnvironment {
        try AppEnvironment(variables: ["BOXOFFICE_CACHE_DIR": folder.url.path], forcesOffline: true)
    }

    @MainActor
    @Test func everyRegistrationResolvesWithNoCaptiveDependency() throws {
        // Given
        let folder = TemporaryFolder()
        let container = CompositionRoot.makeContainer(
            environment: try offlineEnvironment(folder), demoData: try demo)
        // When
        let report = try container.verify()
        // Then
        #expect(report.captiveDependencies.isEmpty, "\(report)")
        _ = try container.resolve(MovieDetailsViewModel.self, argument: "20261001")
        _ = try container.resolve(DailyBoxOfficeViewModel.self, argument: day("2026-11-21"))
        _ = try container.resolve(MovieSearchViewModel.self)
        _ = try container.resolve(BoxOfficeReportViewModel.self)
    }

    @Test func theKobisRepositoryIsOneRegistrationServingAllThreeProtocols() async throws {
        // Given the app's container, and a child that replaces only the KOBIS repository's registration
        // with one whose key is "child"
        let folder = TemporaryFolder()
        let container = CompositionRoot.makeContainer(
            environment: try offlineEnvironment(folder), demoData: try demo)
        let requests = Recorder<String>()
        let child = container.makeChild()
        child.register(KobisBoxOfficeRepository.self, scope: .singleton) { _ in
            let session = StubSession { request in
                requests.append(request.url?.query ?? "")
                return (Data("{}".utf8), try StubSession.makeResponse(for: request, status: 200))
            }
            return KobisBoxOfficeRepository(
                api: KobisAPI(key: "child"), provider: NetworkProvider(session: session))
        }
        // When each protocol is resolved from the child and used
        _ = try? await child.resolve(BoxOfficeRepository.self).dailyBoxOffice(for: day("2026-11-21"))
        _ = try? await child.resolve(MovieRepository.self).movieDetails(code: "1")
        _ = try? await child.resolve(MovieSearchRepository.self).searchMovies(title: "a", limit: 1)
        // Then all three are served by that one registration
        #expect(requests.values.count == 3)
        #expect(requests.values.allSatisfy { $0.contains("key=child") })
    }

    @Test func offlineTheDefaultDayIsTheLatestDemoDayAndLiveItIsYesterdayInKorea() throws {
        // Given
        let folder = TemporaryFolder()
        let live = try AppEnvironment(
            variables: ["KOBIS_API_KEY": "kkkk", "BOXOFFICE_CACHE_DIR": folder.url.path], forcesOffline: false
        )
        let now = Date(timeIntervalSince1970: 1_795_273_200)  // 2026-11-22 00:00 in Seoul
        // Then
        #expect(
            CompositionRoot.defaultDay(environment: try offlineEnvironment(folder), demoData: try demo)
                == day("2026-11-21"))
        #expect(
            CompositionRoot.defaultDay(environment: live, demoData: try demo, now: now) == day("2026-11-21"))
    }

    @Test func defaultBaseURLsAreValid() {
        #expect(
            KobisAPI.defaultBaseURL.absoluteString == "https://www.kobis.or.kr/kobisopenapi/webservice/rest")
        #expect(KakaoAPI.defaultBaseURL.host == "dapi.kakao.com")
    }

    @Test func aMalformedBaseURLIsAConfigurationErrorNamingTheVariable() {
        // When
        let thrown = #expect(throws: ConfigurationError.self) {
            _ = try AppEnvironment(variables: ["KOBIS_BASE_URL": "not a url"], forcesOffline: false)
        }
        // Then
        #expect(thrown?.variable == "KOBIS_BASE_URL")
    }

    @MainActor
    @Test func aDetailsCoordinatorIsReleasedWhenItsScreenCloses() throws {
        // Given a browse flow that opened a film's details
        final class Presenter: BrowsePresenting {
            var shown: [String] = []
            func showDaily(_ viewModel: DailyBoxOfficeViewModel) { shown.append("daily") }
            func showDetails(_ viewModel: MovieDetailsViewModel, coordinator: MovieDetailsCoordinator) {
                shown.append("details \(viewModel.movieCode)")
            }
            func showSearch(_ viewModel: MovieSearchViewModel) { shown.append("search") }
            func showFailure(_ message: String) { shown.append("failure") }
        }
        let presenter = Presenter()
        let daily = DailyBoxOfficeViewModel(repository: GatedRepository(), day: day("2026-11-21"))
        let parent = BrowseCoordinator(
            dailyViewModel: daily, presenter: presenter,
            makeDetailsViewModel: { code in
                MovieDetailsViewModel(
                    movieCode: code, movies: StubMovies(), posters: StubPosters(result: .success(nil)))
            },
            makeSearchViewModel: { MovieSearchViewModel(repository: StubSearch()) })
        parent.showDetails(movieCode: "20261001")
        weak var child: MovieDetailsCoordinator?  // `weak let` would need Swift 6.2
        child = parent.children.first as? MovieDetailsCoordinator
        #expect(child != nil)
        // When
        child?.finish()
        // Then
        #expect(parent.children.isEmpty)
        #expect(child == nil)
        #expect(presenter.shown == ["details 20261001", "daily"])
    }
}
