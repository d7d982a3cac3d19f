import Binding

/// Stands in for a `UIViewController`: main-actor state, bound to its view model.
@MainActor
public final class SearchView {
    /// The titles on screen.
    public private(set) var titles: [String] = []
    /// The summary line on screen.
    public private(set) var summaryText = ""
    private let bag = SubscriptionBag()

    /// Creates an unbound view.
    public init() {}

    /// Binds the view to `viewModel`, with main-actor delivery that holds the view weakly.
    /// - Parameter viewModel: The screen's view model.
    public func bind(to viewModel: SearchViewModel) {
        viewModel.results.subscribeOnMainActor(with: self) { view, movies in
            view.titles = movies.map(\.title)
        }.store(in: bag)
        viewModel.summary.subscribeOnMainActor(with: self) { view, text in
            view.summaryText = text
        }.store(in: bag)
    }
}
