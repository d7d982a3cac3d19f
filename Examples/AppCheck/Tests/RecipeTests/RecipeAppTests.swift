import Binding
import CacheKit
import DIKit
import Foundation
import NetworkLayer
import Recipes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Recipe 5: the composition root's time, replaced by a test.
@MainActor
@Suite("Recipe: a composition root whose time a test replaces")
struct RecipeAppTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    @Test func aTestDrivesTheSearchDebounceWithItsOwnScheduler() async throws {
        // Given the app's container, with the test's scheduler in place of the timers
        let clock = ManualTimerScheduler()
        let app = RecipeApp.makeContainer(session: .json(pageJSON(["Harbin"])), folder: folder.url)
        try await Container.withOverrides(of: app) {
            $0.register((any TimerScheduler).self) { _ in clock }
        } operation: {
            let model: PagedSearchViewModel = try Container.current.resolve()
            // When a query is typed and the test moves time past the debounce
            model.query.value = "Harbin"
            clock.advance(by: .milliseconds(300))
            // Then the search ran, without waiting for real time
            let films = try await model.films.value(where: { !$0.isEmpty })
            #expect(films.map(\.title) == ["Harbin"])
        }
    }

    @Test func aTestSetsTheTimeAnswersAreSavedAt() async throws {
        // Given the app's container with a fixed clock; the app's singleton resolves its clock in the
        // app's container, so the test's child container makes its own (Docs/DIKit.md)
        let saved = Date(timeIntervalSince1970: 1_800_000_000)
        let folder = folder.url
        let app = RecipeApp.makeContainer(session: .json(pageJSON(["Harbin"])), folder: folder)
        try await Container.withOverrides(of: app) {
            $0.register(CacheClock.self) { _ in CacheClock { saved } }
            $0.register(OfflineFilms.self, scope: .singleton) { resolver in
                try OfflineFilms(
                    provider: try resolver.resolve(), folder: folder, user: "user-42",
                    clock: try resolver.resolve())
            }
        } operation: {
            // When an answer arrives and is kept
            let films: OfflineFilms = try Container.current.resolve()
            _ = try await films.search("Harbin")
        }
        // Then, read back offline two hours after the test's time by the same user, it is two hours old
        let sameUser = AuthenticatedProvider.make(
            session: StubSession.failing(URLError(.notConnectedToInternet)),
            credentials: Recipes.Credentials(accessToken: "from sign-in") { "renewed" })
        let offline = try OfflineFilms(
            provider: sameUser, folder: folder, user: "user-42",
            clock: CacheClock { saved.addingTimeInterval(7_200) })
        #expect(try await offline.search("Harbin").age == .seconds(7_200))
    }
}
