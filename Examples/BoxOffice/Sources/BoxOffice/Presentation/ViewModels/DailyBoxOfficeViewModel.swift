import Binding
import Foundation

/// How the daily chart is laid out.
public enum DisplayMode: String, Sendable, CaseIterable {
    /// One row per film.
    case list
    /// Cards in columns.
    case grid

    /// The other mode.
    public var toggled: DisplayMode { self == .list ? .grid : .list }
}

/// The daily box office screen's state and actions. Views bind to its observables.
///
/// Changing the date cancels the request for the previous date: the latest date wins, and a late answer
/// for an older date never overwrites a newer one.
@MainActor
public final class DailyBoxOfficeViewModel {
    /// The day shown.
    public let day: Observable<Day>
    /// The chart, in rank order; empty while loading the first time or after an error.
    public let entries = Observable<[DailyBoxOfficeEntry]>([])
    /// Whether a request is running.
    public let isLoading = Observable(false)
    /// The last error, or `nil`.
    public let errorMessage = Observable<String?>(nil)
    /// What to tell beside the chart shown: rows dropped beyond the top ten, and whether it came from the
    /// cache rather than the network. Empty when there is nothing to tell.
    public let notes = Observable<[String]>([])
    /// Where the shown chart came from (the service, or the cache and why); `.network` before one is
    /// shown.
    public let origin = Observable<DataOrigin>(.network)
    /// List or grid.
    public let displayMode: Observable<DisplayMode>

    private let repository: any BoxOfficeRepository
    private var loading: Task<Void, Never>?
    private var generation = 0

    /// Creates the view model; nothing loads until ``load(_:)``.
    /// - Parameters:
    ///   - repository: Where charts come from.
    ///   - day: The first day to show.
    ///   - displayMode: `.list` by default.
    public init(repository: any BoxOfficeRepository, day: Day, displayMode: DisplayMode = .list) {
        self.repository = repository
        self.day = Observable(day)
        self.displayMode = Observable(displayMode)
    }

    /// Shows `day`: cancels a request for another day still running, and loads this one.
    /// - Parameter day: The day to show.
    /// - Returns: The loading task, to await when the caller needs the result.
    @discardableResult
    public func load(_ day: Day) -> Task<Void, Never> {
        load(day, refreshing: false)
    }

    /// Loads `day`; with `refreshing`, from the service past any cache (the cache then keeps the
    /// answer), as `--refresh` and browse's `r` ask.
    /// - Returns: The loading task, to await when the caller needs the result.
    @discardableResult
    public func load(_ day: Day, refreshing: Bool) -> Task<Void, Never> {
        loading?.cancel()
        generation += 1
        let current = generation
        self.day.value = day
        errorMessage.value = nil
        // The notes were about the chart shown before; they go with it.
        notes.value = []
        isLoading.value = true
        let task = Task { [repository] in
            do {
                let chart =
                    refreshing
                    ? try await repository.refreshedDailyBoxOffice(for: day)
                    : try await repository.dailyBoxOffice(for: day)
                guard current == self.generation else { return }
                self.entries.value = chart.entries
                self.origin.value = chart.origin
                self.notes.value = [
                    ChartNotes.omitted(chart),
                    ChartNotes.origin(chart.origin, of: "the chart for \(day)"),
                ].compactMap { $0 }
            } catch is CancellationError {
                return
            } catch {
                guard current == self.generation else { return }
                self.entries.value = []
                self.notes.value = []
                self.errorMessage.value = ErrorMessage.describe(error)
            }
            self.isLoading.value = false
        }
        loading = task
        return task
    }

    /// Loads the shown day again from the service, past any cache.
    @discardableResult
    public func refresh() -> Task<Void, Never> { load(day.value, refreshing: true) }

    /// Shows the day before.
    @discardableResult
    public func showPreviousDay() -> Task<Void, Never> { load(day.value.previous) }

    /// Shows the day after.
    @discardableResult
    public func showNextDay() -> Task<Void, Never> { load(day.value.next) }

    /// Switches between list and grid.
    public func toggleDisplayMode() {
        displayMode.value = displayMode.value.toggled
    }
}
