import Binding
import DIKit
import Foundation
import NetworkLayer

/// The app's composition root.
public enum AppContainer {
    /// Registers the app's graph in a new container.
    /// - Parameters:
    ///   - session: Where requests go: URLSession in the app, a stub in tests.
    ///   - cacheDirectory: The poster cache's folder.
    ///   - scheduler: The search debounce's timers.
    /// - Returns: The container.
    public static func make(
        session: any NetworkSessionType, cacheDirectory: URL, scheduler: any TimerScheduler = .dispatch
    ) -> Container {
        let container = Container()
        container.register(NetworkProvider.self, scope: .singleton) { _ in
            NetworkProvider(session: session, middlewares: [RetryMiddleware()])
        }
        container.register(PosterCache.self, scope: .singleton) { _ in
            try PosterCache(directory: cacheDirectory)
        }
        container.register(MovieRepository.self, scope: .singleton) { resolver in
            LiveMovieRepository(provider: try resolver.resolve(), posters: try resolver.resolve())
        }
        container.registerOnMainActor(SearchViewModel.self) { @MainActor resolver in
            SearchViewModel(repository: try resolver.resolve(), scheduler: scheduler)
        }
        container.registerOnMainActor(SearchView.self) { @MainActor _ in
            SearchView()
        }
        container.registerAsync(Greeting.self, scope: .singleton) { _ in
            await Greeting.load()
        }
        return container
    }
}

/// Something made by an async factory.
public struct Greeting: Sendable {
    /// The greeting.
    public let text: String

    static func load() async -> Greeting {
        Greeting(text: "Welcome")
    }
}
