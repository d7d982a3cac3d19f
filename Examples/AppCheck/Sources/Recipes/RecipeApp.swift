// swift-format-ignore-file
// Docs/Recipes.md quotes this file line for line: laid out as the page shows it.
import Binding
import CacheKit
import DIKit
import Foundation
import NetworkLayer

/// Recipe 5: the composition root, with time as a dependency a test replaces.
nonisolated public enum RecipeApp {
    /// The app's graph over `session`, with posters and answers kept under `folder`.
    public static func makeContainer(session: any NetworkSessionType, folder: URL) -> Container {
        let container = Container()
        container.register((any TimerScheduler).self, scope: .singleton) { _ in DispatchTimerScheduler.dispatch }
        container.register(CacheClock.self, scope: .singleton) { _ in CacheClock.system }
        container.register(Credentials.self, scope: .singleton) { _ in
            Credentials(accessToken: "from sign-in") { "renewed" }
        }
        container.register(NetworkProvider.self, scope: .singleton) { resolver in
            AuthenticatedProvider.make(session: session, credentials: try resolver.resolve())
        }
        container.register(OfflineFilms.self, scope: .singleton) { resolver in
            try OfflineFilms(provider: try resolver.resolve(), folder: folder, user: "user-42", clock: try resolver.resolve())
        }
        container.registerOnMainActor(PagedSearchViewModel.self) { @MainActor resolver in
            PagedSearchViewModel(
                search: try resolver.resolve(NetworkProvider.self), scheduler: try resolver.resolve())
        }
        return container
    }
}
