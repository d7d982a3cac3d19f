import Binding
import Foundation

/// The movie details screen's state: the details first, then the poster, which is optional.
@MainActor
public final class MovieDetailsViewModel {
    /// Where the poster stands.
    public enum PosterState: Sendable, Equatable {
        /// Not asked for yet.
        case notRequested
        /// Being searched for or downloaded.
        case loading
        /// Found (and cached).
        case loaded(Poster)
        /// The search found nothing.
        case notFound
        /// The search or download failed; the details are still shown.
        case failed(String)
    }

    /// The film's KOBIS code.
    public let movieCode: String
    /// The details, once loaded.
    public let details = Observable<MovieDetails?>(nil)
    /// The poster's state.
    public let poster = Observable<PosterState>(.notRequested)
    /// Whether the details are loading.
    public let isLoading = Observable(false)
    /// Why the details could not be loaded, or `nil`.
    public let errorMessage = Observable<String?>(nil)

    private let movies: any MovieRepository
    private let posters: any PosterProviding

    /// Creates the view model; nothing loads until ``load()``.
    public init(movieCode: String, movies: any MovieRepository, posters: any PosterProviding) {
        self.movieCode = movieCode
        self.movies = movies
        self.posters = posters
    }

    /// Loads the details, then the poster. A poster failure never hides the details.
    public func load() async {
        isLoading.value = true
        errorMessage.value = nil
        defer { isLoading.value = false }
        let loaded: MovieDetails
        do {
            loaded = try await movies.movieDetails(code: movieCode)
        } catch {
            if !(error is CancellationError) { errorMessage.value = ErrorMessage.describe(error) }
            return
        }
        details.value = loaded
        poster.value = .loading
        do {
            if let found = try await posters.poster(for: loaded) {
                poster.value = .loaded(found)
            } else {
                poster.value = .notFound
            }
        } catch {
            poster.value = .failed(ErrorMessage.describe(error))
        }
    }
}
