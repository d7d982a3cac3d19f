import BoxOffice
import DIKit
import Foundation

/// Runs one command line and returns the exit code: 0 success, 1 a runtime failure, 64 a usage error.
@MainActor
public enum BoxOfficeApp {
    /// Runs `boxoffice` with `arguments` in an environment of `variables`.
    /// - Parameters:
    ///   - arguments: The arguments after the program's name.
    ///   - variables: The process environment.
    /// - Returns: The exit code.
    public static func run(arguments: [String], variables: [String: String]) async -> Int32 {
        // Until the keys are read, scrub the raw variables, so not even a malformed key is ever shown.
        let early = Output(secrets: [variables["KOBIS_API_KEY"], variables["KAKAO_REST_API_KEY"]])
        let (code, output) = await execute(arguments: arguments, variables: variables, early: early)
        if early.hasFailedToWrite || output.hasFailedToWrite {
            StandardError.write("error: could not write to standard output\n")
            return 1
        }
        return code
    }

    private static func execute(arguments: [String], variables: [String: String], early: Output) async -> (
        Int32, Output
    ) {
        let invocation: Invocation
        do {
            invocation = try Arguments.parse(arguments)
        } catch {
            early.error("\(error)")
            StandardError.write("Run 'boxoffice --help' for usage.\n")
            return (64, early)
        }
        if invocation.command == .help {
            early.print(Arguments.helpText())
            return (0, early)
        }
        let environment: AppEnvironment
        do {
            environment = try AppEnvironment(variables: variables, forcesOffline: invocation.offline)
        } catch {
            early.error("\(error)")
            return (1, early)
        }
        let output = Output(secrets: [environment.kobisKey, environment.kakaoKey])
        return (
            await execute(invocation, environment: environment, variables: variables, output: output), output
        )
    }

    private static func execute(
        _ invocation: Invocation, environment: AppEnvironment, variables: [String: String], output: Output
    ) async -> Int32 {
        let demoData = DemoData.bundled
        let container = CompositionRoot.makeContainer(environment: environment, demoData: demoData) {
            output.warning($0)
        }
        let screen = Screen(
            style: Style.forStandardOutput(environment: variables),
            columns: Screen.columns(environment: variables), rows: Screen.rows(environment: variables),
            secrets: output.secrets)
        do {
            switch invocation.command {
            case .daily(let date, let mode, let json):
                let day = date ?? CompositionRoot.defaultDay(environment: environment, demoData: demoData)
                return try await daily(
                    day: day, mode: mode, json: json, container: container, screen: screen, output: output,
                    environment: environment, demoData: demoData)
            case .movie(let code, let json):
                return try await movie(
                    code: code, json: json, container: container, screen: screen, output: output,
                    environment: environment, variables: variables)
            case .search(let title, let json):
                return try await search(
                    title: title, json: json, container: container, screen: screen, output: output,
                    environment: environment)
            case .report(let date, let path):
                let day = date ?? CompositionRoot.defaultDay(environment: environment, demoData: demoData)
                return try await report(
                    day: day, path: path, container: container, output: output, environment: environment)
            case .browse:
                return try await browse(
                    container: container, screen: screen, output: output, environment: environment,
                    variables: variables, demoData: demoData)
            case .help:
                return 0
            }
        } catch {
            output.error(ErrorMessage.describe(error))
            return 1
        }
    }

    private static func daily(
        day: Day, mode: DisplayMode, json: Bool, container: Container, screen: Screen, output: Output,
        environment: AppEnvironment, demoData: DemoData?
    ) async throws -> Int32 {
        let viewModel = try container.resolve(DailyBoxOfficeViewModel.self, argument: day)
        viewModel.displayMode.value = mode
        let spinner = Spinner()
        if environment.isKobisLive { spinner.start("Loading the box office for \(day)…") }
        await viewModel.load(day).value
        spinner.stop()
        if let error = viewModel.errorMessage.value {
            output.error(error)
            return 1
        }
        let entries = viewModel.entries.value
        if entries.isEmpty, !environment.isKobisLive, let days = demoData?.days, let first = days.first,
            let last = days.last
        {
            output.note("the demo data covers \(first) to \(last); set KOBIS_API_KEY for live data.")
        }
        if json {
            output.print(
                try JSONOutput.render(
                    JSONOutput.Daily(date: day.dashed, movies: entries.map(JSONOutput.Row.init))))
            return 0
        }
        output.print(Renderers.header(day: day, isDemo: !environment.isKobisLive, style: screen.style))
        if entries.isEmpty {
            output.print("No box office data for \(day).")
        } else {
            let lines =
                mode == .list
                ? Renderers.list(entries, screen: screen) : Renderers.grid(entries, screen: screen)
            output.print(lines.joined(separator: "\n"))
        }
        return 0
    }

    private static func movie(
        code: String, json: Bool, container: Container, screen: Screen, output: Output,
        environment: AppEnvironment, variables: [String: String]
    ) async throws -> Int32 {
        let viewModel = try container.resolve(MovieDetailsViewModel.self, argument: code)
        let spinner = Spinner()
        if environment.isKobisLive || environment.isKakaoLive { spinner.start("Loading \(code)…") }
        await viewModel.load()
        spinner.stop()
        guard let details = viewModel.details.value else {
            output.error(viewModel.errorMessage.value ?? "no details for \(code)")
            return 1
        }
        var poster: Poster?
        switch viewModel.poster.value {
        case .loaded(let found): poster = found
        case .notFound: output.warning("no poster found for \(details.title)")
        case .failed(let reason): output.warning("poster unavailable: \(reason)")
        case .loading, .notRequested: break
        }
        if json {
            output.print(try JSONOutput.render(JSONOutput.Movie(movie: details, poster: poster)))
        } else {
            output.print(
                Renderers.details(details, poster: viewModel.poster.value, screen: screen).joined(
                    separator: "\n"))
            let terminal = InlineImage.detect(environment: variables, isTerminal: isatty(STDOUT_FILENO) != 0)
            if let poster, let image = terminal?.sequence(for: poster.imageData, columns: 24) {
                output.printImage(image)
            }
        }
        return 0
    }

    private static func search(
        title: String, json: Bool, container: Container, screen: Screen, output: Output,
        environment: AppEnvironment
    ) async throws -> Int32 {
        let repository = try container.resolve(MovieSearchRepository.self)
        let spinner = Spinner()
        if environment.isKobisLive { spinner.start("Searching for \(TerminalText.excerpt(title))…") }
        defer { spinner.stop() }
        let result = try await repository.searchMovies(title: title, limit: 20)
        spinner.stop()
        if json {
            output.print(
                try JSONOutput.render(
                    JSONOutput.Search(
                        query: title, total: result.totalCount,
                        movies: result.movies.map(JSONOutput.Found.init))))
            return 0
        }
        output.print(SearchRenderer.summary(result, screen: screen))
        if !result.movies.isEmpty {
            output.print(SearchRenderer.results(result.movies, screen: screen).joined(separator: "\n"))
        }
        return 0
    }

    private static func report(
        day: Day, path: String?, container: Container, output: Output, environment: AppEnvironment
    ) async throws -> Int32 {
        let file = URL(fileURLWithPath: path ?? "boxoffice-\(day.dashed).html")
        do {
            try ReportFile.check(file)
        } catch {
            output.error("cannot write the report to \(file.path): \(error)")
            return 1
        }
        let viewModel = try container.resolve(BoxOfficeReportViewModel.self)
        let spinner = Spinner()
        if environment.isKobisLive || environment.isKakaoLive {
            spinner.start("Making the report for \(day)…")
        }
        await viewModel.load(day)
        spinner.stop()
        guard let report = viewModel.report.value else {
            output.error(viewModel.errorMessage.value ?? "no report for \(day)")
            return 1
        }
        for problem in viewModel.problems.value { output.warning(problem) }
        let html = output.scrubbed(
            HTMLReport.render(report, isDemo: !environment.isKobisLive, generated: Date()))
        do {
            try ReportFile.write(html, to: file)
        } catch {
            output.error("could not write the report to \(file.path): \(error)")
            return 1
        }
        output.print(TerminalText.line(file.path))
        return 0
    }

    private static func browse(
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
        for await key in RawTerminal.keys() {
            if !view.handle(key) { break }
        }
        return 0
    }
}
