// swift-format-ignore-file
// Docs/Recipes.md quotes this file line for line: laid out as the page shows it.
import Binding
import Foundation
import NetworkLayer

/// Where the search screen's pages come from.
public protocol FilmSearching: Sendable {
    /// Page `page` (from 1) of the films matching `text`.
    func search(_ text: String, page: Int) async throws -> FilmPage
}

extension NetworkProvider: FilmSearching {
    /// Page `page` of the films matching `text`, from `FilmAPI`.
    nonisolated public func search(_ text: String, page: Int) async throws -> FilmPage {
        try await send(FilmAPI.search(text, page: page))
    }
}

/// The first page's answer to one query: what the screen shows, tagged with the query it answers.
nonisolated public struct SearchAnswer: Sendable, Equatable {
    /// The query answered.
    public let query: String
    /// The first page, or `nil` when the search failed (or nothing was searched yet).
    public let page: FilmPage?
    /// Why the search failed, for the screen.
    public let failure: String?

    static func load(_ query: String, from films: any FilmSearching) async -> SearchAnswer {
        guard !query.isEmpty else { return SearchAnswer(query: query, page: nil, failure: nil) }
        do {
            return SearchAnswer(query: query, page: try await films.search(query, page: 1), failure: nil)
        } catch {
            return SearchAnswer(query: query, page: nil, failure: "\(error)")
        }
    }
}

/// Recipe 2: a paged search screen's state.
@MainActor
public final class PagedSearchViewModel {
    /// What the user typed.
    public let query = Observable("")
    /// The films shown: the latest query's first page, then each next page.
    public let films = Observable<[Film]>([])
    /// Whether the screen waits for the latest query's first page.
    public let isLoading: Observable<Bool>
    /// Why the last search failed, or `nil`.
    public let errorMessage = Observable<String?>(nil)

    private let search: any FilmSearching
    private let bag = SubscriptionBag()
    private var shown = SearchAnswer(query: "", page: nil, failure: nil)
    private var pagesShown = 0
    /// The next page's load, and its number: only the load still in this slot may show its page.
    private var nextPage: (task: Task<Void, Never>, id: Int)?
    private var loads = 0

    /// Creates the view model.
    /// - Parameters:
    ///   - search: Where pages come from.
    ///   - scheduler: The debounce's timers: `.dispatch` in the app, a `ManualTimerScheduler` in tests.
    public init(search: any FilmSearching, scheduler: any TimerScheduler) {
        self.search = search
        let settled = query.debounce(for: .milliseconds(300), scheduler: scheduler).removeDuplicates()
        // Latest wins: a newer query cancels the older search's task, whose answer is never shown.
        let answers = settled.mapLatest(initial: SearchAnswer(query: "", page: nil, failure: nil)) { text in
            await SearchAnswer.load(text, from: search)
        }
        // Loading while the newest answer is not for the newest query: right when a search is cancelled.
        isLoading = settled.combineLatest(answers).map { query, answer in answer.query != query }
        answers.subscribeOnMainActor(with: self) { model, answer in model.show(answer) }.store(in: bag)
    }

    /// Loads the next page of the films shown, unless one is loading or there is none.
    public func loadNextPage() {
        guard nextPage == nil, shown.page?.hasMore == true else { return }
        let (query, page) = (shown.query, pagesShown + 1)
        loads += 1
        let id = loads
        let task = Task { [search] in
            let next = try? await search.search(query, page: page)
            // A newer query replaced the list meanwhile (and this load): this page is not its.
            guard self.nextPage?.id == id else { return }
            self.nextPage = nil
            guard let next else { return }
            self.films.value += next.films
            self.pagesShown = page
            self.shown = SearchAnswer(query: query, page: next, failure: nil)
        }
        nextPage = (task, id)
    }

    private func show(_ answer: SearchAnswer) {
        nextPage?.task.cancel()
        nextPage = nil
        shown = answer
        pagesShown = answer.page == nil ? 0 : 1
        films.value = answer.page?.films ?? []
        errorMessage.value = answer.failure
    }
}
