import BoxOffice
import DIKit
import Foundation

/// Runs one command line and returns the exit code: 0 success, 1 a runtime failure, 64 a usage error.
@MainActor
enum BoxOfficeApp {
    static func run(arguments: [String], variables: [String: String]) async -> Int32 {
        let invocation: Invocation
        do {
            invocation = try Arguments.parse(arguments)
        } catch {
            StandardError.write("error: \(error)\nRun 'boxoffice --help' for usage.\n")
            return 64
        }
        if invocation.command == .help {
            print(Arguments.helpText())
            return 0
        }
        let environment: AppEnvironment
        do {
            environment = try AppEnvironment(variables: variables, forcesOffline: invocation.offline)
        } catch {
            StandardError.write("error: \(error)\n")
            return 1
        }
        let demoData = DemoData.bundled
        let container = CompositionRoot.makeContainer(environment: environment, demoData: demoData)
        let style = Style.forStandardOutput(environment: variables)
        do {
            switch invocation.command {
            case .daily(let date, let mode, let json):
                let day = date ?? CompositionRoot.defaultDay(environment: environment, demoData: demoData)
                return try await daily(
                    day: day, mode: mode, json: json, container: container, style: style,
                    environment: environment, demoData: demoData)
            case .movie(let code, let json):
                return try await movie(
                    code: code, json: json, container: container, style: style, environment: environment)
            case .browse:
                return try await browse(
                    container: container, style: style, environment: environment, demoData: demoData)
            case .help:
                return 0
            }
        } catch {
            StandardError.write("error: \(ErrorMessage.describe(error))\n")
            return 1
        }
    }

    private static func daily(
        day: Day, mode: DisplayMode, json: Bool, container: Container, style: Style,
        environment: AppEnvironment,
        demoData: DemoData?
    ) async throws -> Int32 {
        let viewModel = try container.resolve(DailyBoxOfficeViewModel.self, argument: day)
        viewModel.displayMode.value = mode
        let spinner = Spinner()
        if environment.isKobisLive { spinner.start("Loading the box office for \(day)…") }
        await viewModel.load(day).value
        spinner.stop()
        if let error = viewModel.errorMessage.value {
            StandardError.write("error: \(error)\n")
            return 1
        }
        let entries = viewModel.entries.value
        if entries.isEmpty, !environment.isKobisLive, let days = demoData?.days, let first = days.first,
            let last = days.last
        {
            StandardError.write(
                "note: the demo data covers \(first) to \(last); set KOBIS_API_KEY for live data.\n")
        }
        if json {
            print(
                try JSONOutput.render(
                    JSONOutput.Daily(date: day.dashed, movies: entries.map(JSONOutput.Row.init))))
            return 0
        }
        print(Renderers.header(day: day, isDemo: !environment.isKobisLive, style: style))
        if entries.isEmpty {
            print("No box office data for \(day).")
        } else {
            let lines =
                mode == .list ? Renderers.list(entries, style: style) : Renderers.grid(entries, style: style)
            print(lines.joined(separator: "\n"))
        }
        return 0
    }

    private static func movie(
        code: String, json: Bool, container: Container, style: Style, environment: AppEnvironment
    ) async throws -> Int32 {
        let viewModel = try container.resolve(MovieDetailsViewModel.self, argument: code)
        let spinner = Spinner()
        if environment.isKobisLive || environment.isKakaoLive { spinner.start("Loading \(code)…") }
        await viewModel.load()
        spinner.stop()
        guard let details = viewModel.details.value else {
            StandardError.write("error: \(viewModel.errorMessage.value ?? "no details for \(code)")\n")
            return 1
        }
        var poster: Poster?
        switch viewModel.poster.value {
        case .loaded(let found): poster = found
        case .notFound: StandardError.write("warning: no poster found for \(details.title)\n")
        case .failed(let reason): StandardError.write("warning: poster unavailable: \(reason)\n")
        case .loading, .notRequested: break
        }
        if json {
            print(try JSONOutput.render(JSONOutput.Movie(movie: details, poster: poster)))
        } else {
            print(
                Renderers.details(details, poster: viewModel.poster.value, style: style).joined(
                    separator: "\n"))
        }
        return 0
    }

    private static func browse(
        container: Container, style: Style, environment: AppEnvironment, demoData: DemoData?
    ) async throws -> Int32 {
        guard let terminal = RawTerminal() else {
            StandardError.write(
                "error: browse needs an interactive terminal; use 'boxoffice daily' in scripts.\n")
            return 1
        }
        defer { terminal.restore() }
        let day = CompositionRoot.defaultDay(environment: environment, demoData: demoData)
        let dailyViewModel = try container.resolve(DailyBoxOfficeViewModel.self, argument: day)
        let movies = try container.resolve(MovieRepository.self)
        let posters = try container.resolve(PosterProviding.self)
        let view = BrowseView(terminal: terminal, style: style, isDemo: !environment.isKobisLive)
        let coordinator = BrowseCoordinator(dailyViewModel: dailyViewModel, presenter: view) { code in
            MovieDetailsViewModel(movieCode: code, movies: movies, posters: posters)
        }
        view.coordinator = coordinator
        coordinator.start()
        for await key in RawTerminal.keys() {
            if !view.handle(key) { break }
        }
        return 0
    }
}
