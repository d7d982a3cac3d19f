import CacheKit
import DIKit
import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Wires the app: the one place that names concrete types. Everything else depends on protocols and
/// receives its dependencies through its initializer.
public enum CompositionRoot {
    /// A container with every registration of the app for `environment`.
    ///
    /// - KOBIS and Kakao each get a `NetworkProvider` (named `"kobis"` and `"kakao"`): live over
    ///   URLSession with retries when their key is set, otherwise over the demo data's session. Poster
    ///   downloads get a third (`"images"`) with no credentials: image URLs point at any site.
    /// - The KOBIS repository is one singleton, forwarded to `MovieSearchRepository`. Charts and details
    ///   go through `CachingKobisRepository` around it when KOBIS is live (past charts and details are kept
    ///   on disk, so a second look needs no network), and straight to it over the demo data. The poster
    ///   provider is a singleton too, refusing any image URL that carries the run's keys. View models are
    ///   made per resolve by main-actor factories (the details view model takes the movie code as a
    ///   runtime argument).
    /// - Parameters:
    ///   - environment: The configuration.
    ///   - demoData: The bundled demo data, for offline runs.
    ///   - warn: Told of problems worth a warning that do not stop the app (an unusable cache folder).
    public static func makeContainer(
        environment: AppEnvironment, demoData: DemoData?,
        warn: @escaping @Sendable (String) -> Void = { _ in }
    ) -> Container {
        let container = Container()
        container.register(AppEnvironment.self, instance: environment)

        container.register(NetworkProvider.self, name: "kobis", scope: .singleton) { _ in
            if environment.isKobisLive { return liveProvider(middlewares: []) }
            return try demoProvider(demoData)
        }
        container.register(NetworkProvider.self, name: "kakao", scope: .singleton) { _ in
            guard environment.isKakaoLive, let key = environment.kakaoKey else {
                return try demoProvider(demoData)
            }
            // The key goes to Kakao's host only, never to the sites its image results point at.
            let authorization = kakaoAPI(environment).authorization(key: key)
            return liveProvider(middlewares: [authorization])
        }
        // Posters come from any site on the web: their provider carries no credentials at all.
        container.register(NetworkProvider.self, name: "images", scope: .singleton) { _ in
            if environment.isKakaoLive { return liveProvider(middlewares: []) }
            return try demoProvider(demoData)
        }
        container.register(KobisBoxOfficeRepository.self, scope: .singleton) { resolver in
            let api = KobisAPI(
                baseURL: environment.kobisBaseURL,
                key: environment.isKobisLive ? environment.kobisKey ?? "" : "demo",
                timeout: environment.requestTimeout ?? .seconds(15))
            return KobisBoxOfficeRepository(api: api, provider: try resolver.resolve(name: "kobis"))
        }
        .implements(MovieSearchRepository.self)
        container.register(CachingKobisRepository.self, scope: .singleton) { resolver in
            CachingKobisRepository(
                origin: try resolver.resolve(KobisBoxOfficeRepository.self),
                directory: environment.cacheDirectory.appendingPathComponent("kobis"),
                scope: environment.kobisBaseURL.absoluteString,
                secrets: environment.keys, warn: warn)
        }
        // Live, charts and details go through the cache; the demo data is already on disk, and caching
        // it would only mix it with live values.
        container.register(BoxOfficeRepository.self) { resolver -> any BoxOfficeRepository in
            environment.isKobisLive
                ? try resolver.resolve(CachingKobisRepository.self)
                : try resolver.resolve(KobisBoxOfficeRepository.self)
        }
        container.register(MovieRepository.self) { resolver -> any MovieRepository in
            environment.isKobisLive
                ? try resolver.resolve(CachingKobisRepository.self)
                : try resolver.resolve(KobisBoxOfficeRepository.self)
        }
        container.register(PosterProviding.self, scope: .singleton) { resolver in
            return PosterProvider(
                api: kakaoAPI(environment), searches: try resolver.resolve(name: "kakao"),
                images: try resolver.resolve(name: "images"), directory: environment.cacheDirectory,
                secrets: environment.keys, scope: posterScope(environment), warn: warn,
                isDemo: !environment.isKakaoLive)
        }
        // View models are @MainActor: their factories run on the main actor, checked by the compiler.
        container.registerOnMainActor(DailyBoxOfficeViewModel.self) { @MainActor (resolver, day: Day) in
            DailyBoxOfficeViewModel(repository: try resolver.resolve(), day: day)
        }
        container.registerOnMainActor(MovieDetailsViewModel.self) { @MainActor (resolver, code: String) in
            MovieDetailsViewModel(
                movieCode: code, movies: try resolver.resolve(), posters: try resolver.resolve())
        }
        container.registerOnMainActor(BoxOfficeReportViewModel.self) { @MainActor resolver in
            BoxOfficeReportViewModel(
                charts: try resolver.resolve(), movies: try resolver.resolve(),
                posters: try resolver.resolve())
        }
        container.registerOnMainActor(MovieSearchViewModel.self) { @MainActor resolver in
            MovieSearchViewModel(repository: try resolver.resolve(), scheduler: .dispatch)
        }
        return container
    }

    /// The day shown when none is given: yesterday in Korea for live data (KOBIS aggregates up to
    /// yesterday), the latest demo day otherwise.
    public static func defaultDay(environment: AppEnvironment, demoData: DemoData?, now: Date = Date()) -> Day
    {
        if environment.isKobisLive { return Day.inKorea(at: now).previous }
        return demoData?.days.last ?? Day.inKorea(at: now).previous
    }

    /// Kakao's endpoints: the configured base URL when live, the official one (which the demo data
    /// answers) otherwise.
    /// Whose answers the poster caches hold: who answered the search (the demo data, or the Kakao server
    /// at its base URL) and whose film codes were searched for (the demo's, or the KOBIS server's). A run
    /// in another mode, or against another server, never reads another's entries.
    static func posterScope(_ environment: AppEnvironment) -> String {
        let kakao = environment.isKakaoLive ? environment.kakaoBaseURL.absoluteString : "demo"
        let kobis = environment.isKobisLive ? environment.kobisBaseURL.absoluteString : "demo"
        return "kakao=\(kakao) kobis=\(kobis)"
    }

    private static func kakaoAPI(_ environment: AppEnvironment) -> KakaoAPI {
        KakaoAPI(
            baseURL: environment.isKakaoLive ? environment.kakaoBaseURL : KakaoAPI.defaultBaseURL,
            timeout: environment.requestTimeout ?? .seconds(10))
    }

    private static func liveProvider(middlewares: [any NetworkMiddleware]) -> NetworkProvider {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 6
        return NetworkProvider(
            session: URLSession(configuration: configuration),
            middlewares: middlewares + [RetryMiddleware(policy: RetryPolicy(maxAttempts: 2))])
    }

    private static func demoProvider(_ demoData: DemoData?) throws -> NetworkProvider {
        guard let demoData else { throw DemoDataMissing() }
        return NetworkProvider(session: demoData.session())
    }
}

/// The demo dataset is not next to the executable.
public struct DemoDataMissing: Error, CustomStringConvertible {
    /// How to fix it.
    public var description: String {
        "The demo data bundle is missing next to the executable. Run it with `swift run boxoffice`, or set "
            + "KOBIS_API_KEY and KAKAO_REST_API_KEY for live data."
    }
}
