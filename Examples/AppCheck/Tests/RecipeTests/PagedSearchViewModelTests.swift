import Binding
import Foundation
import Recipes
import Testing

/// Recipe 2: a paged search: debounced, the latest query wins, a loading flag that stays right, a next
/// page that never loads twice, and an error state.
@MainActor
@Suite("Recipe: a paged search view model")
struct PagedSearchViewModelTests {
    let clock = ManualTimerScheduler()
    let search = FakeSearch()

    func titles(_ model: PagedSearchViewModel) -> [String] { model.films.value.map(\.title) }

    @Test func typingSearchesOnceForWhatWasTypedLast() async throws {
        // Given
        let model = PagedSearchViewModel(search: search, scheduler: clock)
        // When three keystrokes come within the debounce interval, then it passes
        for text in ["H", "Ha", "Harbin"] { model.query.value = text }
        clock.advance(by: .milliseconds(300))
        // Then one search ran, for the last text, and its page shows
        _ = try await model.films.value(where: { !$0.isEmpty })
        #expect(search.calls == ["Harbin#1"])
        #expect(titles(model) == ["Harbin 1"])
    }

    @Test func aNewerQueryWinsAndTheLoadingFlagEndsWithIt() async throws {
        // Given a search for "slow" that does not answer
        let model = PagedSearchViewModel(search: search, scheduler: clock)
        search.hold("slow")
        model.query.value = "slow"
        clock.advance(by: .milliseconds(300))
        _ = try await model.isLoading.value(where: { $0 })
        // When a newer query is typed and answered
        model.query.value = "fast"
        clock.advance(by: .milliseconds(300))
        // Then its films show, the flag goes down although the older search never answered
        _ = try await model.films.value(where: { !$0.isEmpty })
        _ = try await model.isLoading.value(where: { !$0 })
        #expect(titles(model) == ["fast 1"])
        search.release("slow")
        #expect(titles(model) == ["fast 1"])
    }

    @Test func theNextPageIsLoadedOnceHoweverOftenItIsAskedFor() async throws {
        // Given the first page shown, and a second page that takes its time
        let model = PagedSearchViewModel(search: search, scheduler: clock)
        model.query.value = "q"
        clock.advance(by: .milliseconds(300))
        _ = try await model.films.value(where: { !$0.isEmpty })
        search.hold("q")
        // When the list's end is reached three times while the page loads
        for _ in 0..<3 { model.loadNextPage() }
        search.release("q")
        _ = try await model.films.value(where: { $0.count == 2 })
        model.loadNextPage()  // and once more: there is no third page
        // Then page 2 was asked for once, and follows page 1
        #expect(search.calls == ["q#1", "q#2"])
        #expect(titles(model) == ["q 1", "q 2"])
    }

    @Test func aFailedSearchShowsWhyAndNoFilms() async throws {
        // Given a search API that fails
        struct Down: Error, CustomStringConvertible { var description: String { "the server is down" } }
        let model = PagedSearchViewModel(search: FakeSearch { _, _ in throw Down() }, scheduler: clock)
        // When
        model.query.value = "q"
        clock.advance(by: .milliseconds(300))
        // Then
        let message = try await model.errorMessage.value(where: { $0 != nil })
        #expect(message == "the server is down")
        #expect(model.films.value.isEmpty)
        _ = try await model.isLoading.value(where: { !$0 })
    }
}
