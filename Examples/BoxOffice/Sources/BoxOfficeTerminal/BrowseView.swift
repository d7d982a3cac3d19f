import Binding
import BoxOffice
import Foundation

/// The interactive mode's view: draws the screen the coordinator shows, redrawing whenever the view
/// model's observables change, and turns keys into actions.
@MainActor
final class BrowseView: BrowsePresenting {
    private enum Page {
        case daily(DailyBoxOfficeViewModel)
        case details(MovieDetailsViewModel, MovieDetailsCoordinator)
        case search(MovieSearchViewModel)
    }

    private let terminal: RawTerminal
    private var screenSize: Screen
    private let isDemo: Bool
    private var screen: Page?
    private var bindings = SubscriptionBag()
    private var selection = 0
    private var searchSelection = 0
    /// The search results as last drawn: the keys act on what the user sees, not on a newer answer that
    /// has not been drawn yet.
    private var shownResults: [MovieSummary] = []
    private var failure: String?
    weak var coordinator: BrowseCoordinator?

    init(terminal: RawTerminal, screen: Screen, isDemo: Bool) {
        self.terminal = terminal
        self.screenSize = screen
        self.isDemo = isDemo
    }

    private var style: Style { screenSize.style }

    /// Draws `lines`, each cut to the window's width (so none wraps onto a second row) and no more than
    /// its height.
    private func draw(_ lines: [String]) {
        guard !isClosed else { return }
        var fitted = lines
        if let columns = screenSize.columns { fitted = fitted.map { TextWidth.fitStyled($0, to: columns) } }
        if let rows = screenSize.rows { fitted = Array(fitted.prefix(rows)) }
        terminal.draw(fitted)
    }

    /// Set when browse ends: a resize or a binding arriving after the terminal is restored draws nothing.
    private var isClosed = false

    /// Stops drawing, before the terminal is restored.
    func close() {
        isClosed = true
    }

    /// Redraws at the window's new size (SIGWINCH).
    func resize(columns: Int, rows: Int) {
        screenSize.columns = columns
        screenSize.rows = rows
        render()
    }

    func showDaily(_ viewModel: DailyBoxOfficeViewModel) {
        screen = .daily(viewModel)
        bindings = SubscriptionBag()
        viewModel.entries.subscribeOnMainActor(with: self) { view, _ in view.render() }.store(in: bindings)
        viewModel.isLoading.subscribeOnMainActor(with: self) { view, _ in view.render() }.store(in: bindings)
        viewModel.errorMessage.subscribeOnMainActor(with: self) { view, _ in view.render() }.store(
            in: bindings)
        viewModel.displayMode.subscribeOnMainActor(with: self) { view, _ in view.render() }.store(
            in: bindings)
        viewModel.notes.subscribeOnMainActor(with: self) { view, _ in view.render() }.store(in: bindings)
    }

    func showDetails(_ viewModel: MovieDetailsViewModel, coordinator: MovieDetailsCoordinator) {
        screen = .details(viewModel, coordinator)
        bindings = SubscriptionBag()
        viewModel.details.subscribeOnMainActor(with: self) { view, _ in view.render() }.store(in: bindings)
        viewModel.poster.subscribeOnMainActor(with: self) { view, _ in view.render() }.store(in: bindings)
        viewModel.errorMessage.subscribeOnMainActor(with: self) { view, _ in view.render() }.store(
            in: bindings)
    }

    func showSearch(_ viewModel: MovieSearchViewModel) {
        screen = .search(viewModel)
        bindings = SubscriptionBag()
        viewModel.query.subscribeOnMainActor(with: self) { view, _ in view.render() }.store(in: bindings)
        viewModel.state.subscribeOnMainActor(with: self) { view, _ in
            view.searchSelection = 0
            view.render()
        }.store(in: bindings)
    }

    func showFailure(_ message: String) {
        failure = message
        render()
    }

    /// Handles one key; returns false to quit.
    func handle(_ key: Key) -> Bool {
        if key == .interrupt { return false }
        failure = nil
        if case .search(let viewModel) = screen {
            handleSearch(key, viewModel)
            render()
            return true
        }
        if key == .character("q") { return false }
        switch screen {
        case .daily(let viewModel):
            let count = viewModel.entries.value.count
            let columns = viewModel.displayMode.value == .grid ? Renderers.gridColumns(for: screenSize) : 1
            switch key {
            case .left, .character("h"), .character("p"):
                selection = 0
                viewModel.showPreviousDay()
            case .right, .character("l"), .character("n"):
                selection = 0
                viewModel.showNextDay()
            case .character("r"): viewModel.refresh()
            case .character("g"): viewModel.toggleDisplayMode()
            case .character("/"): coordinator?.showSearch()
            case .up, .character("k"): move(by: -columns, count: count)
            case .down, .character("j"): move(by: columns, count: count)
            case .enter:
                if selection < count {
                    coordinator?.showDetails(movieCode: viewModel.entries.value[selection].movieCode)
                }
            default: break
            }
        case .details(_, let coordinator):
            if key == .character("b") || key == .escape || key == .left {
                coordinator.finish()
            }
        case .search, nil:
            break
        }
        render()
        return true
    }

    /// In the search every printable key is typed into the query; Esc closes it.
    private func handleSearch(_ key: Key, _ viewModel: MovieSearchViewModel) {
        let movies = shownResults
        switch key {
        case .escape: coordinator?.closeSearch()
        case .backspace: viewModel.deleteBackward()
        case .up: searchSelection = max(searchSelection - 1, 0)
        case .down: searchSelection = min(searchSelection + 1, max(movies.count - 1, 0))
        case .enter:
            if searchSelection < movies.count {
                coordinator?.showDetails(movieCode: movies[searchSelection].movieCode)
            }
        case .character(let character):
            // Keys are typed as text; a control character (Tab, Ctrl-…) never enters the query, and a
            // paste stops at the longest title searched for.
            if !character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }),
                viewModel.query.value.count < Arguments.maximumTitleLength
            {
                viewModel.type(character)
            }
        default: break
        }
    }

    private func move(by offset: Int, count: Int) {
        guard count > 0 else { return }
        selection = min(max(selection + offset, 0), count - 1)
    }

    func render() {
        switch screen {
        case .daily(let viewModel):
            let top = [Renderers.header(day: viewModel.day.value, isDemo: isDemo, style: style), ""]
            var body: [String] = []
            var focus: Range<Int>?
            var pinned = 0
            if viewModel.isLoading.value {
                body.append(style.dim("Loading…"))
            } else if let error = viewModel.errorMessage.value {
                body.append(style.red("error: " + screenSize.line(error)))
            } else if viewModel.entries.value.isEmpty {
                body.append("No box office data for \(viewModel.day.value).")
            } else {
                let entries = viewModel.entries.value
                selection = min(selection, entries.count - 1)
                if viewModel.displayMode.value == .list {
                    body = Renderers.list(entries, screen: screenSize, selected: selection)
                    // The column names stay on screen; the selected row is kept in view below them.
                    pinned = 1
                    focus = (1 + selection)..<(2 + selection)
                } else {
                    body = Renderers.grid(entries, screen: screenSize, selected: selection)
                    let row = selection / Renderers.gridColumns(for: screenSize)
                    focus = (row * 5)..<(row * 5 + 5)
                }
            }
            var bottom = [""]
            bottom += viewModel.notes.value.flatMap { Renderers.noteLines($0, screen: screenSize) }
            bottom.append(
                style.dim(
                    ScreenFit.hints(
                        [
                            "←/→ day", "↑/↓ select", "Enter details", "/ search", "g list/grid", "r refresh",
                            "q quit",
                        ],
                        columns: screenSize.columns)))
            if let failure { bottom.append(style.red("error: " + screenSize.line(failure))) }
            draw(
                ScreenFit.lines(
                    top: top, body: body, pinned: pinned, focus: focus, bottom: bottom, rows: screenSize.rows)
            )
        case .details(let viewModel, _):
            var lines: [String] = []
            if let movie = viewModel.details.value {
                lines = Renderers.details(movie, poster: viewModel.poster.value, screen: screenSize)
                // Cached details, and why (a refused key), as `movie` says on standard error.
                if let note = ChartNotes.origin(movie.origin, of: "these details") {
                    lines += [""] + Renderers.noteLines(note, screen: screenSize)
                }
            } else if let error = viewModel.errorMessage.value {
                lines = [style.red("error: " + screenSize.line(error))]
            } else {
                lines = [style.dim("Loading \(screenSize.line(viewModel.movieCode))…")]
            }
            draw(
                ScreenFit.lines(
                    top: [], body: lines, pinned: 1, focus: nil,
                    bottom: [
                        "", style.dim(ScreenFit.hints(["b back", "q quit"], columns: screenSize.columns)),
                    ],
                    rows: screenSize.rows))
        case .search(let viewModel):
            draw(searchLines(viewModel))
        case nil:
            break
        }
    }

    private func searchLines(_ viewModel: MovieSearchViewModel) -> [String] {
        let query = TextWidth.truncate(
            screenSize.line(viewModel.query.value), to: max((screenSize.columns ?? 80) - 3, 10))
        var lines = [style.bold("Search films by title"), "", "/ " + query + "▏", ""]
        let state = viewModel.state.value
        shownResults = state.movies
        switch state {
        case .idle:
            lines.append(style.dim(viewModel.isSettled ? "Type part of a title." : "Searching…"))
        case .results(let result):
            lines.append(
                SearchRenderer.summary(result, screen: screenSize)
                    + (viewModel.isSettled ? "" : style.dim("  searching…")))
            searchSelection = min(searchSelection, max(result.movies.count - 1, 0))
            // As many results as fit the screen (4 lines above, 2 below, the summary), scrolled to keep
            // the selection in view.
            let fitting = max((screenSize.rows ?? Int.max) - 8, 1)
            let first = min(max(searchSelection - fitting + 1, 0), max(result.movies.count - fitting, 0))
            let window = Array(result.movies.dropFirst(first).prefix(fitting))
            lines += SearchRenderer.results(window, screen: screenSize, selected: searchSelection - first)
        case .failed(_, let message):
            lines.append(style.red("error: " + screenSize.line(message)))
        }
        lines += [
            "",
            style.dim(
                ScreenFit.hints(
                    ["type a title", "↑/↓ select", "Enter details", "Esc back"], columns: screenSize.columns)),
        ]
        if let failure { lines.append(style.red("error: " + screenSize.line(failure))) }
        return lines
    }
}
