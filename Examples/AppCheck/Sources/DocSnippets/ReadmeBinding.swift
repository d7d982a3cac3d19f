// swift-format-ignore-file
// The docs' code, laid out as the page shows it (see DocSnippets.swift).
import Binding

@MainActor
final class TitleView {                        // a UIView or UIViewController in an app
    private let bag = SubscriptionBag()
    private(set) var text = ""

    func bind(to title: Observable<String>) {
        // On the main actor, the view passed in and held weakly: no retain cycle, ends with the view.
        title.subscribeOnMainActor(with: self) { view, text in view.text = text }.store(in: bag)
    }
}

@MainActor func readmeBindingTour(titleView: TitleView) {  //-
    let title = Observable("Loading…")            // a view model's state, set from any thread
    titleView.bind(to: title)                     // shows "Loading…" at once
    title.value = "Daily box office"              // shows "Daily box office" on the main actor
}  //-

enum ReadmeSearch {  //-
    struct Movie: Sendable {}  //-
    static func screen(  //-
        query: Observable<String>, search: @escaping @Sendable (String) async -> [Movie],  //-
        render: @escaping @MainActor @Sendable ([Movie]) -> Void, bag: SubscriptionBag  //-
    ) {  //-
        let results = query
            .debounce(for: .milliseconds(250))                 // a ManualTimerScheduler in tests
            .removeDuplicates()
            .mapLatest(initial: [Movie]()) { await search($0) } // a new query cancels the old search
        results.subscribeOnMainActor(delivering: .latestValue) { render($0) }.store(in: bag)
    }  //-
}  //-
