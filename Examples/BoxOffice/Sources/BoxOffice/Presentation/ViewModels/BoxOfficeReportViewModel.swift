import Binding
import Foundation

/// One film in a report: its chart row, its details and poster when they could be had.
public struct ReportFilm: Sendable, Equatable {
    /// The chart row.
    public let entry: DailyBoxOfficeEntry
    /// The details, or `nil` when they could not be loaded.
    public let details: MovieDetails?
    /// The poster, or `nil` when none was found or it could not be loaded.
    public let poster: Poster?

    /// Creates a film of a report.
    public init(entry: DailyBoxOfficeEntry, details: MovieDetails?, poster: Poster?) {
        self.entry = entry
        self.details = details
        self.poster = poster
    }
}

/// A day's chart with every film's details and poster: what the HTML report shows.
public struct BoxOfficeReport: Sendable, Equatable {
    /// The day.
    public let day: Day
    /// The films, in rank order.
    public let films: [ReportFilm]
    /// Where the chart came from on this run (each film's details say where they came from).
    public let chartOrigin: DataOrigin

    /// Creates a report.
    /// - Parameters:
    ///   - day: The day.
    ///   - films: The films, in rank order.
    ///   - chartOrigin: Where the chart came from; the network by default.
    public init(day: Day, films: [ReportFilm], chartOrigin: DataOrigin = .network) {
        self.day = day
        self.films = films
        self.chartOrigin = chartOrigin
    }
}

/// Builds the report for a day: the chart (its top ten, ``DailyBoxOffice/maximumEntries``), then every
/// film's details and poster, four films at a time: at most 31 requests before retries (a chart, ten
/// details, ten poster searches and ten downloads), however many rows a server sends.
///
/// A film whose details or poster cannot be had is still in the report (without them), and each such
/// problem is listed in ``problems``; only a chart that cannot be loaded fails the report.
@MainActor
public final class BoxOfficeReportViewModel {
    /// The report, once loaded.
    public let report = Observable<BoxOfficeReport?>(nil)
    /// Why the report could not be made, or `nil`.
    public let errorMessage = Observable<String?>(nil)
    /// One line per film whose details or poster are missing from the report.
    public let problems = Observable<[String]>([])
    /// What came from the cache rather than the network, and when it was saved: one line for the
    /// chart, one for the films' details (``ChartNotes/origin(_:of:)``, ``ChartNotes/detailsOrigin(_:)``).
    public let notes = Observable<[String]>([])

    private let charts: any BoxOfficeRepository
    private let movies: any MovieRepository
    private let posters: any PosterProviding

    /// How many films are loaded at the same time.
    static let concurrentFilms = 4

    /// Creates the view model; nothing loads until ``load(_:)``.
    /// - Parameters:
    ///   - charts: Where the chart comes from.
    ///   - movies: Where details come from.
    ///   - posters: Where posters come from.
    public init(charts: any BoxOfficeRepository, movies: any MovieRepository, posters: any PosterProviding) {
        self.charts = charts
        self.movies = movies
        self.posters = posters
    }

    /// Loads the report for `day`.
    public func load(_ day: Day) async {
        errorMessage.value = nil
        let chart: DailyBoxOffice
        do {
            chart = try await charts.dailyBoxOffice(for: day)
        } catch {
            if !(error is CancellationError) { errorMessage.value = ErrorMessage.describe(error) }
            return
        }
        let loaded = await loadFilms(chart.entries)
        // A cancelled load publishes nothing: its films' details were cut short, not unavailable.
        guard !Task.isCancelled else { return }
        let films = loaded.map(\.film)
        report.value = BoxOfficeReport(day: day, films: films, chartOrigin: chart.origin)
        notes.value = [
            ChartNotes.origin(chart.origin, of: "the chart for \(day)"),
            ChartNotes.detailsOrigin(films.map(\.details)),
        ].compactMap { $0 }
        problems.value = (ChartNotes.omitted(chart).map { [$0] } ?? []) + loaded.flatMap(\.problems)
    }

    private func loadFilms(_ entries: [DailyBoxOfficeEntry]) async -> [(film: ReportFilm, problems: [String])]
    {
        let movies = movies
        let posters = posters
        var results: [(Int, ReportFilm, [String])] = []
        await withTaskGroup(of: (Int, ReportFilm, [String]).self) { group in
            var next = 0
            func addNext() {
                guard next < entries.count else { return }
                let index = next
                let entry = entries[index]
                next += 1
                group.addTask {
                    let (film, problems) = await Self.loadFilm(entry, movies: movies, posters: posters)
                    return (index, film, problems)
                }
            }
            for _ in 0..<Self.concurrentFilms { addNext() }
            for await result in group {
                results.append(result)
                addNext()
            }
        }
        return results.sorted { $0.0 < $1.0 }.map { ($0.1, $0.2) }
    }

    private nonisolated static func loadFilm(
        _ entry: DailyBoxOfficeEntry, movies: any MovieRepository, posters: any PosterProviding
    ) async -> (ReportFilm, [String]) {
        var problems: [String] = []
        var details: MovieDetails?
        var poster: Poster?
        do {
            details = try await movies.movieDetails(code: entry.movieCode)
        } catch is CancellationError {
        } catch {
            problems.append("\(entry.title): details unavailable: \(ErrorMessage.describe(error))")
        }
        // The search needs only the title, which the chart already has: a film whose details failed
        // still gets its poster.
        do {
            poster = try await posters.poster(
                movieCode: entry.movieCode, title: details?.title ?? entry.title)
        } catch is CancellationError {
        } catch {
            problems.append("\(entry.title): poster unavailable: \(ErrorMessage.describe(error))")
        }
        return (ReportFilm(entry: entry, details: details, poster: poster), problems)
    }
}
