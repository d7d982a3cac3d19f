import Binding
import Foundation

/// The search screen's state: debounced, the latest query's answer wins.
public final class SearchViewModel: Sendable {
    /// What the user typed.
    public let query = Observable("")
    /// The films found for the latest query, debounced.
    public let results: Observable<[Movie]>
    /// A line for the screen: how many films were found.
    public let summary: Observable<String>

    /// Creates the view model.
    /// - Parameters:
    ///   - repository: Where films come from.
    ///   - scheduler: The debounce's timers; a `ManualTimerScheduler` in tests.
    public init(repository: any MovieRepository, scheduler: any TimerScheduler = .dispatch) {
        results =
            query
            .debounce(for: .milliseconds(250), scheduler: scheduler)
            .removeDuplicates()
            .mapLatest(initial: [Movie]()) { text in
                (try? await repository.search(text)) ?? []
            }
        summary = results.map(Self.summary(of:))
    }

    /// An operator's transform runs where the value is set, so under main-actor default isolation it is
    /// marked `nonisolated`.
    nonisolated static func summary(of movies: [Movie]) -> String {
        movies.isEmpty ? "No films" : "\(movies.count) films"
    }
}
