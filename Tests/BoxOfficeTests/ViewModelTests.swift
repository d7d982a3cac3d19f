import Binding
import BoxOffice
import Foundation
import TestSupport
import Testing

/// A repository whose answers the test releases one day at a time.
final class GatedRepository: BoxOfficeRepository, @unchecked Sendable {
    // @unchecked Sendable: `gates` and `requested` are only touched while holding `lock`.
    private let lock = NSLock()
    private var gates: [Day: CheckedContinuation<Void, Never>] = [:]
    private var requested: [Day] = []
    let failing: Set<Day>

    init(failing: Set<Day> = []) { self.failing = failing }

    var requestedDays: [Day] {
        lock.lock()
        defer { lock.unlock() }
        return requested
    }

    func dailyBoxOffice(for day: Day) async throws -> DailyBoxOffice {
        await withCheckedContinuation { continuation in
            lock.lock()
            gates[day] = continuation
            requested.append(day)
            lock.unlock()
        }
        if failing.contains(day) { throw StubFailure() }
        return DailyBoxOffice(day: day, entries: [Self.entry(title: "film of \(day)")])
    }

    func release(_ day: Day) {
        lock.lock()
        let gate = gates.removeValue(forKey: day)
        lock.unlock()
        gate?.resume()
    }

    func waitUntilRequested(_ count: Int) async {
        await waitWhile { requestedDays.count < count }
    }

    static func entry(title: String) -> DailyBoxOfficeEntry {
        DailyBoxOfficeEntry(
            rank: 1, rankChange: 0, isNew: true, movieCode: "1", title: title, openDate: nil,
            audienceCount: 1,
            audienceAccumulated: 1, salesAmount: 1, salesAccumulated: 1, salesShare: 100, screenCount: 1,
            showCount: 1)
    }
}

struct StubFailure: Error, CustomStringConvertible {
    var description: String { "the stub failed" }
}

/// A repository that records whether a chart was asked for or refreshed, and answers a chart from which
/// two rows past the top ten were dropped.
final class RefreshRecordingRepository: BoxOfficeRepository, @unchecked Sendable {
    // @unchecked Sendable: `calls` is a Recorder (locked); nothing else is stored.
    let calls = Recorder<String>()

    func dailyBoxOffice(for day: Day) async throws -> DailyBoxOffice {
        calls.append("chart")
        return DailyBoxOffice(day: day, entries: [GatedRepository.entry(title: "a")], omittedEntries: 2)
    }

    func refreshedDailyBoxOffice(for day: Day) async throws -> DailyBoxOffice {
        calls.append("refreshed")
        return DailyBoxOffice(day: day, entries: [GatedRepository.entry(title: "a")])
    }
}

@MainActor
@Suite("DailyBoxOfficeViewModel")
struct DailyBoxOfficeViewModelTests {
    @Test func refreshAsksPastTheCacheWhereLoadingAsksForTheChart() async {
        // Given
        let repository = RefreshRecordingRepository()
        let viewModel = DailyBoxOfficeViewModel(repository: repository, day: day("2026-11-20"))
        // When
        await viewModel.load(day("2026-11-20")).value
        await viewModel.refresh().value
        // Then
        #expect(repository.calls.values == ["chart", "refreshed"])
    }

    @Test func theNotesOfTheChartShownGoWhenAnotherDayLoads() async {
        // Given a chart shown with a note about the rows it dropped
        let viewModel = DailyBoxOfficeViewModel(
            repository: RefreshRecordingRepository(), day: day("2026-11-20"))
        await viewModel.load(day("2026-11-20")).value
        #expect(viewModel.notes.value.count == 1)
        // When another day starts loading
        let loading = viewModel.load(day("2026-11-21"))
        // Then the note about the old chart is gone at once, while the new one loads
        #expect(viewModel.notes.value.isEmpty)
        await loading.value
    }

    @Test func loadingGoesFromIdleToLoadingToIdleWithTheEntries() async {
        // Given a view observing the loading state
        let repository = GatedRepository()
        let viewModel = DailyBoxOfficeViewModel(repository: repository, day: day("2026-11-21"))
        let loading = Recorder<Bool>()
        let bag = SubscriptionBag()
        viewModel.isLoading.subscribe { loading.append($0) }.store(in: bag)
        // When
        let task = viewModel.load(day("2026-11-21"))
        await repository.waitUntilRequested(1)
        repository.release(day("2026-11-21"))
        await task.value
        // Then
        #expect(loading.values == [false, true, false])
        #expect(viewModel.entries.value.map(\.title) == ["film of 2026-11-21"])
        #expect(viewModel.errorMessage.value == nil)
    }

    @Test func theLatestDateWinsAndALateAnswerNeverOverwritesIt() async {
        // Given a request for the 19th still running when the 20th is chosen
        let repository = GatedRepository()
        let viewModel = DailyBoxOfficeViewModel(repository: repository, day: day("2026-11-19"))
        let shown = Recorder<[String]>()
        let bag = SubscriptionBag()
        viewModel.entries.subscribe { shown.append($0.map(\.title)) }.store(in: bag)
        let first = viewModel.load(day("2026-11-19"))
        await repository.waitUntilRequested(1)
        // When
        let second = viewModel.load(day("2026-11-20"))
        await repository.waitUntilRequested(2)
        repository.release(day("2026-11-20"))
        await second.value
        repository.release(day("2026-11-19"))
        await first.value
        // Then the 19th's late answer was dropped
        #expect(shown.values == [[], ["film of 2026-11-20"]])
        #expect(viewModel.day.value == day("2026-11-20"))
        #expect(viewModel.isLoading.value == false)
    }

    @Test func aFailureIsShownAndClearsTheEntries() async {
        // Given
        let repository = GatedRepository(failing: [day("2026-11-21")])
        let viewModel = DailyBoxOfficeViewModel(repository: repository, day: day("2026-11-21"))
        // When
        let task = viewModel.load(day("2026-11-21"))
        await repository.waitUntilRequested(1)
        repository.release(day("2026-11-21"))
        await task.value
        // Then
        #expect(viewModel.errorMessage.value == "the stub failed")
        #expect(viewModel.entries.value.isEmpty)
        #expect(viewModel.isLoading.value == false)
    }

    @Test func previousAndNextDayMoveByOneDay() async {
        // Given
        let repository = GatedRepository()
        let viewModel = DailyBoxOfficeViewModel(repository: repository, day: day("2026-11-01"))
        // When
        viewModel.showPreviousDay()
        let afterPrevious = viewModel.day.value
        viewModel.showNextDay()
        viewModel.showNextDay()
        // Then
        #expect(afterPrevious == day("2026-10-31"))
        #expect(viewModel.day.value == day("2026-11-02"))
    }

    @Test func theDisplayModeToggles() {
        // Given
        let viewModel = DailyBoxOfficeViewModel(repository: GatedRepository(), day: day("2026-11-21"))
        let modes = Recorder<DisplayMode>()
        let subscription = viewModel.displayMode.subscribe { modes.append($0) }
        // When
        viewModel.toggleDisplayMode()
        viewModel.toggleDisplayMode()
        // Then
        #expect(modes.values == [.list, .grid, .list])
        _ = subscription
    }
}

struct StubMovies: MovieRepository {
    var failure: (any Error)?
    func movieDetails(code: String) async throws -> MovieDetails {
        if let failure { throw failure }
        return MovieDetails(
            movieCode: code, title: "별빛 우체국", englishTitle: "The Starlight Post Office", openDate: nil,
            runtimeMinutes: 118, productionYear: 2026, genres: [], directors: [], actors: [], nations: [],
            watchGrade: nil, companies: [])
    }
}

struct StubPosters: PosterProviding {
    var result: Result<Poster?, StubFailure>
    func poster(movieCode: String, title: String) async throws -> Poster? { try result.get() }
}

@MainActor
@Suite("MovieDetailsViewModel")
struct MovieDetailsViewModelTests {
    let poster = Poster(
        url: URL(string: "https://example.com/p.png")!, file: URL(fileURLWithPath: "/tmp/p"),
        imageData: Data([1, 2, 3]),
        source: .network)

    @Test func detailsComeFirstThenThePoster() async {
        // Given
        let viewModel = MovieDetailsViewModel(
            movieCode: "20261001", movies: StubMovies(), posters: StubPosters(result: .success(poster)))
        let states = Recorder<MovieDetailsViewModel.PosterState>()
        let subscription = viewModel.poster.subscribe { states.append($0) }
        // When
        await viewModel.load()
        // Then
        #expect(viewModel.details.value?.title == "별빛 우체국")
        #expect(states.values == [.notRequested, .loading, .loaded(poster)])
        _ = subscription
    }

    @Test func aPosterFailureKeepsTheDetails() async {
        // Given
        let viewModel = MovieDetailsViewModel(
            movieCode: "20261001", movies: StubMovies(), posters: StubPosters(result: .failure(StubFailure()))
        )
        // When
        await viewModel.load()
        // Then
        #expect(viewModel.details.value != nil)
        #expect(viewModel.poster.value == .failed("the stub failed"))
        #expect(viewModel.errorMessage.value == nil)
    }

    @Test func aDetailsFailureIsShownAndNoPosterIsSought() async {
        // Given
        let viewModel = MovieDetailsViewModel(
            movieCode: "1", movies: StubMovies(failure: StubFailure()),
            posters: StubPosters(result: .success(poster)))
        // When
        await viewModel.load()
        // Then
        #expect(viewModel.errorMessage.value == "the stub failed")
        #expect(viewModel.poster.value == .notRequested)
    }
}
