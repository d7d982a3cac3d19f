import AppCore
import Binding
import DIKit
import Foundation
import NetworkLayer
import Testing

@Suite("An app's core, wired from the package's documented idioms", .timeLimit(.minutes(1)))
struct AppCoreTests {
    /// Answers a search for "Harbin" with one film, and every other search with none.
    static let session = StubSession { request in
        let found = request.url?.query == "q=Harbin"
        let body = found ? #"{"results":[{"id":"1","title":"Harbin","posterURL":null}]}"# : #"{"results":[]}"#
        return try await StubSession.json(body).response(for: request)
    }

    @MainActor
    @Test func aViewBoundOnTheMainActorShowsTheDebouncedSearchsResults() async throws {
        // Given a view bound to the search view model, time in the test's hands
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ManualTimerScheduler()
        let container = AppContainer.make(session: Self.session, cacheDirectory: folder, scheduler: clock)
        let viewModel: SearchViewModel = try container.resolve()
        let view: SearchView = try container.resolve()
        view.bind(to: viewModel)
        // When the user types a query and the debounce interval passes
        viewModel.query.value = "Harbin"
        clock.advance(by: .milliseconds(250))
        // Then the view shows the film on the main actor
        _ = try await viewModel.summary.value(where: { $0 == "1 films" })
        await MainActor.run {}
        #expect(view.titles == ["Harbin"])
        #expect(view.summaryText == "1 films")
    }

    @Test func theAsyncFactoryMakesItsInstanceOnce() async throws {
        // Given
        let container = AppContainer.make(
            session: Self.session, cacheDirectory: FileManager.default.temporaryDirectory)
        // When
        let first: Greeting = try await container.resolveAsync()
        let second: Greeting = try await container.resolveAsync()
        // Then
        #expect(first.text == "Welcome")
        #expect(second.text == first.text)
    }

    @MainActor
    @Test func theContainerVerifiesWithNoCaptiveDependency() async throws {
        // Given
        let container = AppContainer.make(
            session: Self.session, cacheDirectory: FileManager.default.temporaryDirectory)
        // When every registration is resolved, the async and main-actor ones included
        let report = try await container.verifyAsync()
        // Then
        #expect(report.captiveDependencies.isEmpty)
    }
}

@Suite("A Codable value cached on disk")
struct MovieDetailsStoreTests {
    @Test func detailsLoadedOnceAreReadFromDiskByANewStore() async throws {
        // Given details loaded through one store
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: folder) }
        let details = MovieDetails(id: "20124079", minutes: 131)
        _ = try await MovieDetailsStore(directory: folder).details(of: details.id) { details }
        // When a new store (a later launch) asks for them with a loader that fails
        let reopened = try MovieDetailsStore(directory: folder)
        let read = try await reopened.details(of: details.id) { throw URLError(.notConnectedToInternet) }
        // Then they come from disk
        #expect(read == details)
    }
}
