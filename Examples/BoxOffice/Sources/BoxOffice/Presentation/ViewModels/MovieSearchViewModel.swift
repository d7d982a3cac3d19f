import Binding
import Foundation

/// The search screen's state: type a title, see the films that match.
///
/// Built from Binding's operators: the query is trimmed, debounced (nothing is asked until the user stops
/// typing for ``debounceInterval``), a settled query equal to the one before is dropped (typing a key and
/// erasing it searches nothing), and each new settled query starts a search that cancels the one before
/// it (`mapLatest`). An answer for an older query that arrives after a newer query settled is dropped,
/// however the requests' answers are ordered (one already being published at that instant is followed,
/// and replaced, by the newer query's answer).
@MainActor
public final class MovieSearchViewModel {
    /// What the results area shows.
    public enum State: Sendable, Equatable {
        /// No query: nothing searched.
        case idle
        /// The matches for `result.query` (perhaps none).
        case results(MovieSearchResult)
        /// The search for `query` failed.
        case failed(query: String, message: String)

        /// The query this state answers; empty for ``idle``.
        public var query: String {
            switch self {
            case .idle: ""
            case .results(let result): result.query
            case .failed(let query, _): query
            }
        }

        /// The films found; empty unless ``results(_:)``.
        public var movies: [MovieSummary] {
            if case .results(let result) = self { return result.movies }
            return []
        }
    }

    /// How long the query must stay unchanged before it is searched: 250 ms.
    public static let debounceInterval: Duration = .milliseconds(250)

    /// What the user typed. Set it on every keystroke.
    public let query = Observable("")
    /// The answer for the latest settled query.
    public let state: Observable<State>

    /// Creates the view model; nothing is searched until ``query`` holds text.
    /// - Parameters:
    ///   - repository: Where searches go.
    ///   - scheduler: The debounce's clock: Dispatch timers by default, a `ManualTimerScheduler` in tests.
    ///   - limit: How many films a search returns at most; 20 by default.
    public init(
        repository: any MovieSearchRepository, scheduler: some TimerScheduler = .dispatch, limit: Int = 20
    ) {
        state = query.map(Self.normalized)
            .debounce(for: Self.debounceInterval, scheduler: scheduler)
            .removeDuplicates()
            .mapLatest(initial: State.idle) { query in
                guard !query.isEmpty else { return .idle }
                do {
                    return .results(try await repository.searchMovies(title: query, limit: limit))
                } catch {
                    // A cancelled search's value is dropped by mapLatest; any other failure is shown.
                    return .failed(query: query, message: ErrorMessage.describe(error))
                }
            }
    }

    /// Whether the shown state answers what is typed now; false while typing and while a search runs.
    public var isSettled: Bool {
        state.value.query == Self.normalized(query.value)
    }

    /// Appends `character` to the query.
    public func type(_ character: Character) {
        query.value.append(character)
    }

    /// Removes the query's last character.
    public func deleteBackward() {
        if !query.value.isEmpty { query.value.removeLast() }
    }

    /// A query as it is searched: trimmed of spaces and line breaks, control characters removed, at most
    /// 100 characters.
    nonisolated static func normalized(_ text: String) -> String {
        var visible = String.UnicodeScalarView()
        visible.append(contentsOf: text.unicodeScalars.filter { $0.properties.generalCategory != .control })
        return String(String(visible).trimmingCharacters(in: .whitespacesAndNewlines).prefix(100))
    }
}
