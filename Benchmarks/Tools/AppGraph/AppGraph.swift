import DIKit
import Swinject

// An app-shaped graph: twelve services, four singletons and eight transients, five levels deep
// (AppScreen → ChartViewModel → AuthService → APIClient → HTTPSession). The same objects are built
// by DIKit, by Swinject (plain and synchronized) and by hand, as a composition root would write it. A
// library of the benchmark package: the wall-clock benchmarks and the instruction counts build the same
// graph.

public final class GraphClock: Sendable {}
public final class GraphLogger: Sendable {}
public final class GraphHTTPSession: Sendable {}
public final class GraphImageCache: Sendable {}
public final class GraphAPIClient: Sendable {
    let session: GraphHTTPSession
    let logger: GraphLogger
    init(session: GraphHTTPSession, logger: GraphLogger) {
        self.session = session
        self.logger = logger
    }
}
public final class GraphTokenStore: Sendable {
    let clock: GraphClock
    init(clock: GraphClock) { self.clock = clock }
}
public final class GraphAuthService: Sendable {
    let api: GraphAPIClient
    let tokens: GraphTokenStore
    init(api: GraphAPIClient, tokens: GraphTokenStore) {
        self.api = api
        self.tokens = tokens
    }
}
public final class GraphMovieRepository: Sendable {
    let api: GraphAPIClient
    let cache: GraphImageCache
    init(api: GraphAPIClient, cache: GraphImageCache) {
        self.api = api
        self.cache = cache
    }
}
public final class GraphBoxOfficeRepository: Sendable {
    let api: GraphAPIClient
    let clock: GraphClock
    init(api: GraphAPIClient, clock: GraphClock) {
        self.api = api
        self.clock = clock
    }
}
public final class GraphPosterLoader: Sendable {
    let cache: GraphImageCache
    let session: GraphHTTPSession
    init(cache: GraphImageCache, session: GraphHTTPSession) {
        self.cache = cache
        self.session = session
    }
}
public final class GraphChartViewModel: Sendable {
    let boxOffice: GraphBoxOfficeRepository
    let posters: GraphPosterLoader
    let auth: GraphAuthService
    init(boxOffice: GraphBoxOfficeRepository, posters: GraphPosterLoader, auth: GraphAuthService) {
        self.boxOffice = boxOffice
        self.posters = posters
        self.auth = auth
    }
}
public final class GraphAppScreen: Sendable {
    let chart: GraphChartViewModel
    let movies: GraphMovieRepository
    let logger: GraphLogger
    init(chart: GraphChartViewModel, movies: GraphMovieRepository, logger: GraphLogger) {
        self.chart = chart
        self.movies = movies
        self.logger = logger
    }
}

public func makeDIKitGraph() -> DIKit.Container {
    let container = DIKit.Container()
    container.register(GraphClock.self, scope: .singleton) { _ in GraphClock() }
    container.register(GraphLogger.self, scope: .singleton) { _ in GraphLogger() }
    container.register(GraphHTTPSession.self, scope: .singleton) { _ in GraphHTTPSession() }
    container.register(GraphImageCache.self, scope: .singleton) { _ in GraphImageCache() }
    container.register(GraphAPIClient.self) {
        GraphAPIClient(session: try $0.resolve(), logger: try $0.resolve())
    }
    container.register(GraphTokenStore.self) { GraphTokenStore(clock: try $0.resolve()) }
    container.register(GraphAuthService.self) {
        GraphAuthService(api: try $0.resolve(), tokens: try $0.resolve())
    }
    container.register(GraphMovieRepository.self) {
        GraphMovieRepository(api: try $0.resolve(), cache: try $0.resolve())
    }
    container.register(GraphBoxOfficeRepository.self) {
        GraphBoxOfficeRepository(api: try $0.resolve(), clock: try $0.resolve())
    }
    container.register(GraphPosterLoader.self) {
        GraphPosterLoader(cache: try $0.resolve(), session: try $0.resolve())
    }
    container.register(GraphChartViewModel.self) {
        GraphChartViewModel(boxOffice: try $0.resolve(), posters: try $0.resolve(), auth: try $0.resolve())
    }
    container.register(GraphAppScreen.self) {
        GraphAppScreen(chart: try $0.resolve(), movies: try $0.resolve(), logger: try $0.resolve())
    }
    return container
}

/// Swinject's resolve returns an optional; the benchmark registers everything, so a miss is a bug in the
/// benchmark itself and stops it.
func need<T>(_ value: T?) -> T {
    guard let value else { fatalError("Swinject graph: \(T.self) is not registered") }
    return value
}

public func makeSwinjectGraph() -> Swinject.Container {
    let container = Swinject.Container()
    container.register(GraphClock.self) { _ in GraphClock() }.inObjectScope(.container)
    container.register(GraphLogger.self) { _ in GraphLogger() }.inObjectScope(.container)
    container.register(GraphHTTPSession.self) { _ in GraphHTTPSession() }.inObjectScope(.container)
    container.register(GraphImageCache.self) { _ in GraphImageCache() }.inObjectScope(.container)
    container.register(GraphAPIClient.self) {
        GraphAPIClient(
            session: need($0.resolve(GraphHTTPSession.self)), logger: need($0.resolve(GraphLogger.self)))
    }.inObjectScope(.transient)
    container.register(GraphTokenStore.self) { GraphTokenStore(clock: need($0.resolve(GraphClock.self))) }
        .inObjectScope(.transient)
    container.register(GraphAuthService.self) {
        GraphAuthService(
            api: need($0.resolve(GraphAPIClient.self)), tokens: need($0.resolve(GraphTokenStore.self)))
    }.inObjectScope(.transient)
    container.register(GraphMovieRepository.self) {
        GraphMovieRepository(
            api: need($0.resolve(GraphAPIClient.self)), cache: need($0.resolve(GraphImageCache.self)))
    }.inObjectScope(.transient)
    container.register(GraphBoxOfficeRepository.self) {
        GraphBoxOfficeRepository(
            api: need($0.resolve(GraphAPIClient.self)), clock: need($0.resolve(GraphClock.self)))
    }.inObjectScope(.transient)
    container.register(GraphPosterLoader.self) {
        GraphPosterLoader(
            cache: need($0.resolve(GraphImageCache.self)), session: need($0.resolve(GraphHTTPSession.self)))
    }.inObjectScope(.transient)
    container.register(GraphChartViewModel.self) {
        GraphChartViewModel(
            boxOffice: need($0.resolve(GraphBoxOfficeRepository.self)),
            posters: need($0.resolve(GraphPosterLoader.self)), auth: need($0.resolve(GraphAuthService.self)))
    }.inObjectScope(.transient)
    container.register(GraphAppScreen.self) {
        GraphAppScreen(
            chart: need($0.resolve(GraphChartViewModel.self)),
            movies: need($0.resolve(GraphMovieRepository.self)),
            logger: need($0.resolve(GraphLogger.self)))
    }.inObjectScope(.transient)
    return container
}

/// The same graph written by hand: the singletons made once and held, the transients built per call.
public struct HandWrittenGraph: Sendable {
    let clock = GraphClock()
    let logger = GraphLogger()
    let session = GraphHTTPSession()
    let cache = GraphImageCache()

    /// The graph's holder of its singletons.
    public init() {}

    @inline(never)
    public func makeAppScreen() -> GraphAppScreen {
        GraphAppScreen(
            chart: GraphChartViewModel(
                boxOffice: GraphBoxOfficeRepository(api: makeAPIClient(), clock: clock),
                posters: GraphPosterLoader(cache: cache, session: session),
                auth: GraphAuthService(api: makeAPIClient(), tokens: GraphTokenStore(clock: clock))),
            movies: GraphMovieRepository(api: makeAPIClient(), cache: cache),
            logger: logger)
    }

    @inline(never)
    func makeAPIClient() -> GraphAPIClient {
        GraphAPIClient(session: session, logger: logger)
    }
}
