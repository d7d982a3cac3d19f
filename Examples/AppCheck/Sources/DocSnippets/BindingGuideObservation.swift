// swift-format-ignore-file
// The docs' code, laid out as the page shows it (see DocSnippets.swift).
#if canImport(Observation)  //-
import Observation
import class Binding.Observable

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
@MainActor @Observable final class SearchViewModel {
    @ObservationIgnored let results = Observable<[Movie]>([])
    @ObservationIgnored private(set) lazy var trackedResults = results.tracked()   // views read .value
}

/// A film, for the guide's Observation example.
struct Movie: Sendable {}
#endif  //-
