import Binding
import BoxOffice
import Foundation
import TestSupport
import Testing

/// A search repository that records each query and answers it only when the test releases it; it
/// ignores cancellation, so a superseded search still answers (late), as a slow server would.
final class GatedSearch: MovieSearchRepository, @unchecked Sendable {
    // @unchecked Sendable: `gates` and `queries` are only touched while holding `lock`.
    private let lock = NSLock()
    private var gates: [String: CheckedContinuation<Void, Never>] = [:]
    private var queries: [String] = []
    private var cancelledQueries: [String] = []
    private var returnedQueries: [String] = []
    let failing: Set<String>

    init(failing: Set<String> = []) { self.failing = failing }

    var searched: [String] {
        lock.lock()
        defer { lock.unlock() }
        return queries
    }

    /// The searches whose task was cancelled while they waited.
    var cancelled: [String] {
        lock.lock()
        defer { lock.unlock() }
        return cancelledQueries
    }

    /// The searches that have returned (late ones included).
    var returned: [String] {
        lock.lock()
        defer { lock.unlock() }
        return returnedQueries
    }

    func searchMovies(title: String, limit: Int) async throws -> MovieSearchResult {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                lock.lock()
                gates[title] = continuation
                queries.append(title)
                lock.unlock()
            }
        } onCancel: {
            lock.lock()
            cancelledQueries.append(title)
            lock.unlock()
        }
        defer { markReturned(title) }
        if failing.contains(title) { throw BoxOfficeError.unreachable("the network is down") }
        return MovieSearchResult(
            query: title, totalCount: 1, movies: [Self.movie(title: "film for \(title)")])
    }

    private func markReturned(_ title: String) {
        lock.lock()
        returnedQueries.append(title)
        lock.unlock()
    }

    func release(_ title: String) {
        lock.lock()
        let gate = gates.removeValue(forKey: title)
        lock.unlock()
        gate?.resume()
    }

    func waitUntilSearched(_ count: Int) async {
        await waitWhile { searched.count < count }
    }

    func waitUntilReturned(_ title: String) async {
        await waitWhile { !returned.contains(title) }
    }

    static func movie(title: String) -> MovieSummary {
        MovieSummary(
            movieCode: "1", title: title, englishTitle: "", productionYear: nil, openDate: nil, genres: [],
            directors: [])
    }
}

/// Answers every search at once with no films.
struct StubSearch: MovieSearchRepository {
    func searchMovies(title: String, limit: Int) async throws -> MovieSearchResult {
        MovieSearchResult(query: title, totalCount: 0, movies: [])
    }
}

@MainActor
@Suite("MovieSearchViewModel", .timeLimit(.minutes(1)))
struct MovieSearchViewModelTests {
    @Test func typingQuicklySearchesOnlyTheFinalQueryOnceTheUserPauses() async {
        // Given
        let repository = GatedSearch()
        let clock = ManualTimerScheduler()
        let viewModel = MovieSearchViewModel(repository: repository, scheduler: clock)
        // When the user types three keys 100 ms apart
        for character in "서울 " {
            viewModel.type(character)
            clock.advance(by: .milliseconds(100))
        }
        viewModel.type("탈")
        clock.advance(by: .milliseconds(249))
        // Then nothing was searched while typing
        #expect(repository.searched.isEmpty)
        // When the pause reaches 250 ms
        clock.advance(by: .milliseconds(1))
        await repository.waitUntilSearched(1)
        repository.release("서울 탈")
        #expect(await eventually { viewModel.state.value.query == "서울 탈" })
        // Then exactly one search ran, for what was typed last
        #expect(repository.searched == ["서울 탈"])
        #expect(viewModel.state.value.movies.map(\.title) == ["film for 서울 탈"])
        #expect(viewModel.isSettled)
    }

    @Test func aLateAnswerForAnOlderQueryIsNeverShown() async {
        // Given a search for "old" still running
        let repository = GatedSearch()
        let clock = ManualTimerScheduler()
        let viewModel = MovieSearchViewModel(repository: repository, scheduler: clock)
        viewModel.query.value = "old"
        clock.advance(by: .milliseconds(250))
        await repository.waitUntilSearched(1)
        // When the user searches "new", whose answer comes first, and then "old" answers
        viewModel.query.value = "new"
        clock.advance(by: .milliseconds(250))
        await repository.waitUntilSearched(2)
        repository.release("new")
        #expect(await eventually { viewModel.state.value.query == "new" })
        repository.release("old")
        await repository.waitUntilReturned("old")
        for _ in 0..<1_000 { await Task.yield() }
        // Then the results are still those for "new"
        #expect(viewModel.state.value.query == "new")
        #expect(viewModel.state.value.movies.map(\.title) == ["film for new"])
    }

    @Test func aNewQueryCancelsTheSearchStillRunningForTheOldOne() async {
        // Given a search for "old" still running
        let repository = GatedSearch()
        let clock = ManualTimerScheduler()
        let viewModel = MovieSearchViewModel(repository: repository, scheduler: clock)
        viewModel.query.value = "old"
        clock.advance(by: .milliseconds(250))
        await repository.waitUntilSearched(1)
        // When a new query settles
        viewModel.query.value = "new"
        clock.advance(by: .milliseconds(250))
        await repository.waitUntilSearched(2)
        // Then the old search's task was cancelled, the new one's not
        #expect(repository.cancelled == ["old"])
        repository.release("old")
        repository.release("new")
    }

    @Test func whileTypingTheShownResultsAreMarkedUnsettled() async {
        // Given results for "a"
        let repository = GatedSearch()
        let clock = ManualTimerScheduler()
        let viewModel = MovieSearchViewModel(repository: repository, scheduler: clock)
        viewModel.query.value = "a"
        clock.advance(by: .milliseconds(250))
        await repository.waitUntilSearched(1)
        repository.release("a")
        #expect(await eventually { viewModel.state.value.query == "a" })
        // When another key is typed
        viewModel.type("b")
        // Then the old results stay, marked as not answering the query
        #expect(viewModel.state.value.query == "a")
        #expect(!viewModel.isSettled)
    }

    @Test func typingAKeyAndErasingItWithinThePauseSearchesNothingNew() async {
        // Given results for "seoul"
        let repository = GatedSearch()
        let clock = ManualTimerScheduler()
        let viewModel = MovieSearchViewModel(repository: repository, scheduler: clock)
        viewModel.query.value = "seoul"
        clock.advance(by: .milliseconds(250))
        await repository.waitUntilSearched(1)
        repository.release("seoul")
        #expect(await eventually { viewModel.state.value.query == "seoul" })
        // When a key is typed and erased, and a trailing space typed, before the pause ends
        viewModel.type("q")
        clock.advance(by: .milliseconds(100))
        viewModel.deleteBackward()
        viewModel.type(" ")
        clock.advance(by: .milliseconds(250))
        for _ in 0..<100 { await Task.yield() }
        // Then
        #expect(repository.searched == ["seoul"])
        #expect(viewModel.isSettled)
    }

    @Test func clearingTheQueryShowsIdleWithoutSearching() async {
        // Given
        let repository = GatedSearch()
        let clock = ManualTimerScheduler()
        let viewModel = MovieSearchViewModel(repository: repository, scheduler: clock)
        viewModel.query.value = "a"
        clock.advance(by: .milliseconds(250))
        await repository.waitUntilSearched(1)
        repository.release("a")
        #expect(await eventually { viewModel.state.value.query == "a" })
        // When the query is erased to spaces
        viewModel.deleteBackward()
        viewModel.query.value = "   "
        clock.advance(by: .milliseconds(250))
        #expect(await eventually { viewModel.state.value == .idle })
        // Then no second search ran
        #expect(repository.searched == ["a"])
    }

    @Test func spacesAroundTheQueryAndControlCharactersAreNotSearched() async {
        // Given
        let repository = GatedSearch()
        let clock = ManualTimerScheduler()
        let viewModel = MovieSearchViewModel(repository: repository, scheduler: clock)
        // When
        viewModel.query.value = "  서울\u{1B}[2J  "
        clock.advance(by: .milliseconds(250))
        await repository.waitUntilSearched(1)
        // Then
        #expect(repository.searched == ["서울[2J"])
        repository.release("서울[2J")
    }

    @Test func aFailedSearchShowsItsMessageForThatQuery() async {
        // Given
        let repository = GatedSearch(failing: ["x"])
        let clock = ManualTimerScheduler()
        let viewModel = MovieSearchViewModel(repository: repository, scheduler: clock)
        // When
        viewModel.query.value = "x"
        clock.advance(by: .milliseconds(250))
        await repository.waitUntilSearched(1)
        repository.release("x")
        #expect(await eventually { viewModel.state.value.query == "x" })
        // Then
        #expect(viewModel.state.value == .failed(query: "x", message: "the network is down"))
    }
}
