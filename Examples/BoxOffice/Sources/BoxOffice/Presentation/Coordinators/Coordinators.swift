import Foundation

/// Shows the screens of the interactive mode. The terminal view implements it.
@MainActor
public protocol BrowsePresenting: AnyObject {
    /// Shows the daily chart.
    func showDaily(_ viewModel: DailyBoxOfficeViewModel)
    /// Shows a film's details; `coordinator` is told when the user goes back.
    func showDetails(_ viewModel: MovieDetailsViewModel, coordinator: MovieDetailsCoordinator)
    /// Shows the title search.
    func showSearch(_ viewModel: MovieSearchViewModel)
    /// Tells the user, in one line, that a screen could not be opened.
    func showFailure(_ message: String)
}

/// Owns a flow of screens and its child flows (the origin's Coordinator pattern).
@MainActor
public protocol Coordinator: AnyObject {
    /// The child flows running now.
    var children: [any Coordinator] { get }
    /// Shows the flow's first screen.
    func start()
}

/// The interactive mode's root flow: the daily chart, the title search, and a details flow per film
/// opened from either.
///
/// It makes no view model itself: it is given factories (the app resolves them from its container), so
/// tests and previews can hand it their own.
@MainActor
public final class BrowseCoordinator: Coordinator {
    /// The chart's view model.
    public let dailyViewModel: DailyBoxOfficeViewModel
    /// The search's view model while the search is open; `nil` on the chart.
    public private(set) var searchViewModel: MovieSearchViewModel?
    /// The details flows running now (at most one).
    public private(set) var children: [any Coordinator] = []
    private weak var presenter: (any BrowsePresenting)?
    private let makeDetailsViewModel: @MainActor (String) throws -> MovieDetailsViewModel
    private let makeSearchViewModel: @MainActor () throws -> MovieSearchViewModel

    /// Creates the flow.
    /// - Parameters:
    ///   - dailyViewModel: The chart's view model.
    ///   - presenter: Shows the screens; held weakly.
    ///   - makeDetailsViewModel: Makes a details view model for a movie code.
    ///   - makeSearchViewModel: Makes a search view model each time the search opens.
    public init(
        dailyViewModel: DailyBoxOfficeViewModel,
        presenter: any BrowsePresenting,
        makeDetailsViewModel: @escaping @MainActor (String) throws -> MovieDetailsViewModel,
        makeSearchViewModel: @escaping @MainActor () throws -> MovieSearchViewModel
    ) {
        self.dailyViewModel = dailyViewModel
        self.presenter = presenter
        self.makeDetailsViewModel = makeDetailsViewModel
        self.makeSearchViewModel = makeSearchViewModel
    }

    /// Shows the chart and loads its day.
    public func start() {
        presenter?.showDaily(dailyViewModel)
        dailyViewModel.refresh()
    }

    /// Opens the title search with an empty query.
    public func showSearch() {
        guard let presenter else { return }
        do {
            let viewModel = try makeSearchViewModel()
            searchViewModel = viewModel
            presenter.showSearch(viewModel)
        } catch {
            presenter.showFailure(ErrorMessage.describe(error))
        }
    }

    /// Closes the search (its view model, and a search it is running, are released) and shows the chart.
    public func closeSearch() {
        searchViewModel = nil
        presenter?.showDaily(dailyViewModel)
    }

    /// Starts a child flow for the film `movieCode`.
    public func showDetails(movieCode: String) {
        guard let presenter else { return }
        do {
            let child = MovieDetailsCoordinator(
                viewModel: try makeDetailsViewModel(movieCode), presenter: presenter, parent: self)
            children.append(child)
            child.start()
        } catch {
            presenter.showFailure(ErrorMessage.describe(error))
        }
    }

    /// Called by a child when its screen closes: the child is released, and the screen it was opened
    /// from (the search, or the chart) is shown again.
    func childDidFinish(_ child: any Coordinator) {
        children.removeAll { $0 === child }
        if let searchViewModel {
            presenter?.showSearch(searchViewModel)
        } else {
            presenter?.showDaily(dailyViewModel)
        }
    }
}

/// The details flow for one film. It ends, and is released, when its screen closes.
@MainActor
public final class MovieDetailsCoordinator: Coordinator {
    /// The details' view model.
    public let viewModel: MovieDetailsViewModel
    /// No children.
    public let children: [any Coordinator] = []
    private weak var presenter: (any BrowsePresenting)?
    private weak var parent: BrowseCoordinator?
    private var loading: Task<Void, Never>?

    init(viewModel: MovieDetailsViewModel, presenter: any BrowsePresenting, parent: BrowseCoordinator) {
        self.viewModel = viewModel
        self.presenter = presenter
        self.parent = parent
    }

    /// Shows the details and loads them.
    public func start() {
        presenter?.showDetails(viewModel, coordinator: self)
        loading = Task { [viewModel] in await viewModel.load() }
    }

    /// Closes the screen: stops loading and tells the parent, which releases this flow.
    public func finish() {
        loading?.cancel()
        loading = nil
        parent?.childDidFinish(self)
    }
}
