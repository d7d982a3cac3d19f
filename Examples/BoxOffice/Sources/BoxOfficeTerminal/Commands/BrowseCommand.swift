import BoxOffice
import DIKit
import Foundation

// `browse`: the interactive mode.
extension BoxOfficeApp {
    static func browse(
        container: Container, screen: Screen, output: Output, environment: AppEnvironment,
        variables: [String: String], demoData: DemoData?
    ) async throws -> Int32 {
        guard !Style.isDumb(environment: variables) else {
            output.error(
                "browse needs a terminal that can move its cursor (TERM is dumb); use 'boxoffice daily'.")
            return 1
        }
        guard let terminal = RawTerminal(output: output) else {
            output.error("browse needs an interactive terminal; use 'boxoffice daily' in scripts.")
            return 1
        }
        defer { terminal.restore() }
        let day = CompositionRoot.defaultDay(environment: environment, demoData: demoData)
        let dailyViewModel = try container.resolve(DailyBoxOfficeViewModel.self, argument: day)
        let view = BrowseView(terminal: terminal, screen: screen, isDemo: !environment.isKobisLive)
        // Every view model comes from the container; the coordinator is given factories that resolve them.
        let coordinator = BrowseCoordinator(
            dailyViewModel: dailyViewModel, presenter: view,
            makeDetailsViewModel: { code in try container.resolve(MovieDetailsViewModel.self, argument: code)
            },
            makeSearchViewModel: { try container.resolve(MovieSearchViewModel.self) })
        view.coordinator = coordinator
        coordinator.start()
        // A resize redraws at the new size at once, not at the next key.
        let resizes = terminal.onResize { columns, rows in
            Task { @MainActor in view.resize(columns: columns, rows: rows) }
        }
        defer {
            // Nothing draws once browse ends: not a resize, not a late binding.
            resizes.cancel()
            view.close()
        }
        for await key in RawTerminal.keys() {
            // Ctrl-C quits as an interrupted program does: exit 130 (128 + SIGINT), which a shell script
            // can tell from a user's `q`.
            if key == .interrupt { return 130 }
            if !view.handle(key) { break }
        }
        return 0
    }
}
