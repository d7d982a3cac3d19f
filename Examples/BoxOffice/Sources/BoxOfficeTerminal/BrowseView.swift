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
    }

    private let terminal: RawTerminal
    private let screenSize: Screen
    private let isDemo: Bool
    private var screen: Page?
    private var bindings = SubscriptionBag()
    private var selection = 0
    weak var coordinator: BrowseCoordinator?

    init(terminal: RawTerminal, screen: Screen, isDemo: Bool) {
        self.terminal = terminal
        self.screenSize = screen
        self.isDemo = isDemo
    }

    private var style: Style { screenSize.style }

    func showDaily(_ viewModel: DailyBoxOfficeViewModel) {
        screen = .daily(viewModel)
        bindings = SubscriptionBag()
        viewModel.entries.subscribeOnMainActor(with: self) { view, _ in view.render() }.store(in: bindings)
        viewModel.isLoading.subscribeOnMainActor(with: self) { view, _ in view.render() }.store(in: bindings)
        viewModel.errorMessage.subscribeOnMainActor(with: self) { view, _ in view.render() }.store(
            in: bindings)
        viewModel.displayMode.subscribeOnMainActor(with: self) { view, _ in view.render() }.store(
            in: bindings)
    }

    func showDetails(_ viewModel: MovieDetailsViewModel, coordinator: MovieDetailsCoordinator) {
        screen = .details(viewModel, coordinator)
        bindings = SubscriptionBag()
        viewModel.details.subscribeOnMainActor(with: self) { view, _ in view.render() }.store(in: bindings)
        viewModel.poster.subscribeOnMainActor(with: self) { view, _ in view.render() }.store(in: bindings)
        viewModel.errorMessage.subscribeOnMainActor(with: self) { view, _ in view.render() }.store(
            in: bindings)
    }

    /// Handles one key; returns false to quit.
    func handle(_ key: Key) -> Bool {
        if key == .interrupt || key == .character("q") { return false }
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
        case nil:
            break
        }
        render()
        return true
    }

    private func move(by offset: Int, count: Int) {
        guard count > 0 else { return }
        selection = min(max(selection + offset, 0), count - 1)
    }

    func render() {
        switch screen {
        case .daily(let viewModel):
            var lines = [Renderers.header(day: viewModel.day.value, isDemo: isDemo, style: style), ""]
            if viewModel.isLoading.value {
                lines.append(style.dim("Loading…"))
            } else if let error = viewModel.errorMessage.value {
                lines.append(style.red("error: " + screenSize.line(error)))
            } else if viewModel.entries.value.isEmpty {
                lines.append("No box office data for \(viewModel.day.value).")
            } else {
                selection = min(selection, viewModel.entries.value.count - 1)
                lines +=
                    viewModel.displayMode.value == .list
                    ? Renderers.list(viewModel.entries.value, screen: screenSize, selected: selection)
                    : Renderers.grid(viewModel.entries.value, screen: screenSize, selected: selection)
            }
            lines += [
                "", style.dim("←/→ day · ↑/↓ select · Enter details · g list/grid · r refresh · q quit"),
            ]
            terminal.draw(lines)
        case .details(let viewModel, _):
            var lines: [String] = []
            if let movie = viewModel.details.value {
                lines = Renderers.details(movie, poster: viewModel.poster.value, screen: screenSize)
            } else if let error = viewModel.errorMessage.value {
                lines = [style.red("error: " + screenSize.line(error))]
            } else {
                lines = [style.dim("Loading \(screenSize.line(viewModel.movieCode))…")]
            }
            lines += ["", style.dim("b back · q quit")]
            terminal.draw(lines)
        case nil:
            break
        }
    }
}
