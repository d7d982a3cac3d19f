import BoxOffice
import DIKit
import Foundation

// The commands that print once and exit: `daily`, `movie` and `search`.
extension BoxOfficeApp {
    // swift-format-ignore: FunctionParameterCount
    static func daily(
        day: Day, mode: DisplayMode, json: Bool, refresh: Bool = false, container: Container, screen: Screen,
        output: Output, environment: AppEnvironment, demoData: DemoData?
    ) async throws -> Int32 {
        let viewModel = try container.resolve(DailyBoxOfficeViewModel.self, argument: day)
        viewModel.displayMode.value = mode
        let spinner = Spinner()
        if environment.isKobisLive { spinner.start("Loading the box office for \(day)…") }
        await viewModel.load(day, refreshing: refresh).value
        spinner.stop()
        if let error = viewModel.errorMessage.value {
            output.error(error)
            return 1
        }
        // Rows dropped beyond the top ten, and a chart read from the cache, are said on stderr.
        for note in viewModel.notes.value { output.note(note) }
        let entries = viewModel.entries.value
        if entries.isEmpty, !environment.isKobisLive, let days = demoData?.days, let first = days.first,
            let last = days.last
        {
            output.note("the demo data covers \(first) to \(last); set KOBIS_API_KEY for live data.")
        }
        if json {
            output.print(
                try JSONOutput.render(
                    JSONOutput.Daily(
                        date: day.dashed, movies: entries.map(JSONOutput.Row.init),
                        origin: JSONOutput.Origin(
                            origin: viewModel.origin.value, isDemo: !environment.isKobisLive)),
                    scrub: output.scrubbed))
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

    static func movie(
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
        if let note = ChartNotes.origin(details.origin, of: "the details of \(code)") { output.note(note) }
        if !environment.isKobisLive {
            output.note("these are the demo data; set KOBIS_API_KEY for live data.")
        }
        var poster: Poster?
        switch viewModel.poster.value {
        case .loaded(let found): poster = found
        case .notFound: output.warning("no poster found for \(details.title)")
        case .failed(let reason): output.warning("poster unavailable: \(reason)")
        case .loading, .notRequested: break
        }
        if json {
            output.print(
                try JSONOutput.render(
                    JSONOutput.Movie(movie: details, poster: poster, isDemo: !environment.isKobisLive),
                    scrub: output.scrubbed))
        } else {
            output.print(
                Renderers.details(
                    details, poster: poster.map { .loaded($0) } ?? viewModel.poster.value, screen: screen
                )
                .joined(
                    separator: "\n"))
            let terminal = InlineImage.detect(environment: variables, isTerminal: isatty(STDOUT_FILENO) != 0)
            if let poster, let image = terminal?.sequence(for: poster.imageData, columns: 24) {
                output.printImage(image)
            }
        }
        return 0
    }

    /// The most films `search` shows: one page of 20, the rest counted in the summary line.
    static let searchLimit = 20

    static func search(
        title: String, json: Bool, container: Container, screen: Screen, output: Output,
        environment: AppEnvironment
    ) async throws -> Int32 {
        let repository = try container.resolve(MovieSearchRepository.self)
        let spinner = Spinner()
        if environment.isKobisLive { spinner.start("Searching for \(TerminalText.excerpt(title))…") }
        defer { spinner.stop() }
        // The repository cuts a server's answer to this many films, however many it sends.
        let result = try await repository.searchMovies(title: title, limit: searchLimit)
        spinner.stop()
        if json {
            output.print(
                try JSONOutput.render(
                    JSONOutput.Search(
                        query: title, total: result.totalCount,
                        movies: result.movies.map(JSONOutput.Found.init)),
                    scrub: output.scrubbed))
            return 0
        }
        output.print(SearchRenderer.summary(result, screen: screen))
        if !result.movies.isEmpty {
            output.print(SearchRenderer.results(result.movies, screen: screen).joined(separator: "\n"))
        }
        return 0
    }
}
