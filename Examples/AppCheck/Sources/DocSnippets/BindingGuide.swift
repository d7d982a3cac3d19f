// swift-format-ignore-file
// The docs' code, laid out as the page shows it (see DocSnippets.swift).
import Binding

final class DailyBoxOfficeViewModel: Sendable {
    let date = Observable("2026-11-21")
    let entries = Observable<[Entry]>([])
    let isLoading = Observable(false)
    let error = Observable<String?>(nil)    // Optional when "none" means something
}

@MainActor
final class DailyBoxOfficeView {    // a UIViewController in an app
    private let bag = SubscriptionBag()

    func bind(to viewModel: DailyBoxOfficeViewModel) {
        viewModel.entries.subscribeOnMainActor(with: self) { view, entries in view.render(entries) }
            .store(in: bag)
        viewModel.isLoading.map { $0 ? "Loading…" : "" }
            .subscribeOnMainActor(with: self) { view, text in view.showStatus(text) }
            .store(in: bag)
    }
    func render(_ entries: [Entry]) {}  //-
    func showStatus(_ text: String) {}  //-
}

/// A row of the chart.
struct Entry: Sendable {}

/// The search screen's state, and where its answers come from.
nonisolated enum SearchState: Sendable, Equatable {
    case idle
    case results([String])
}

/// Searches for the guide's search screen.
protocol SearchRepository: Sendable {
    func search(_ text: String) async -> SearchState
}

func bindingGuideSearchScreen(  //-
    query: Observable<String>, repository: any SearchRepository, scheduler: any TimerScheduler,  //-
    render: @escaping @MainActor @Sendable (SearchState) -> Void, bag: SubscriptionBag  //-
) {  //-
    let results = query
        .debounce(for: .milliseconds(250), scheduler: scheduler)
        .removeDuplicates()
        .mapLatest(initial: SearchState.idle) { await repository.search($0) }
    results.subscribeOnMainActor(delivering: .latestValue) { render($0) }.store(in: bag)
}  //-

func bindingGuideManualTime(query: Observable<String>) -> Observable<String> {  //-
    let scheduler = ManualTimerScheduler()
    let settled = query.debounce(for: .milliseconds(250), scheduler: scheduler)
    query.value = "a"; query.value = "av"
    scheduler.advance(by: .milliseconds(250))   // settled.value == "av"
    return settled  //-
}  //-

/// An answer tagged with the query it answers.
struct Answer: Sendable, Equatable {
    let query: String
    let state: SearchState
}


func bindingGuideLoadingIndicator(  //-
    settledQuery: Observable<String>, repository: any SearchRepository  //-
) -> (Observable<Answer>, Observable<Bool>) {  //-
    let answers = settledQuery.mapLatest(initial: Answer(query: "", state: .idle)) { query in
        Answer(query: query, state: await repository.search(query))
    }
    let isLoading = settledQuery.combineLatest(answers).map { query, answer in answer.query != query }
    return (answers, isLoading)  //-
}  //-

func bindingGuideWaitingForMapLatest(  //-
    scheduler: ManualTimerScheduler, results: Observable<SearchState>  //-
) async throws -> SearchState {  //-
    scheduler.advance(by: .milliseconds(250))          // the debounce has published "av"
    let shown = try await results.value(where: { $0 != .idle })   // mapLatest's task finishes later
    return shown  //-
}  //-
