// swift-format-ignore-file
// The docs' code, laid out as the page shows it (see DocSnippets.swift).
import Foundation  //-
import NetworkLayer  //-
#if canImport(FoundationNetworking)  //-
    import FoundationNetworking  //-
#endif  //-
import DIKit

extension DIKitGuide {  //-
    @MainActor static func quickStart() throws {  //-
        let container = Container()
        container.register(NetworkSessionType.self, scope: .singleton) { _ in URLSession.shared }
        container.register(BoxOfficeRepository.self) { resolver in
            KobisBoxOfficeRepository(session: try resolver.resolve())
        }
        container.registerOnMainActor(DailyBoxOfficeViewModel.self) { @MainActor resolver in
            DailyBoxOfficeViewModel(repository: try resolver.resolve())
        }

        let viewModel: DailyBoxOfficeViewModel = try container.resolve()   // on the main actor
        _ = viewModel  //-
    }  //-

    static func forwarding(container: Container) throws {  //-
        container.register(KobisBoxOfficeRepository.self, scope: .singleton) { resolver in
            KobisBoxOfficeRepository(session: try resolver.resolve())
        }
        .implements(BoxOfficeRepository.self, MovieRepository.self)

        let chart: BoxOfficeRepository = try container.resolve()   // the same singleton…
        let movies: MovieRepository = try container.resolve()      // …as this one
        _ = (chart, movies)  //-
    }  //-

    static func mainActorFactories(container: Container) {  //-
        container.registerOnMainActor(DailyBoxOfficeViewModel.self) { @MainActor (resolver, day: Day) in
            DailyBoxOfficeViewModel(repository: try resolver.resolve(), day: day)
        }

        @MainActor func showChart() throws {
            let viewModel = try container.resolve(DailyBoxOfficeViewModel.self, argument: Day.today)
            _ = viewModel  //-
        }
    }  //-

    static func asyncFactories(container: Container) async throws {  //-
        container.registerAsync(Database.self, scope: .singleton) { resolver in
            try await Database.open(at: try await resolver.resolve(StorageLocation.self).url)
        }
        let database: Database = try await container.resolveAsync()
        _ = database  //-
    }  //-
}  //-

extension CustomScope {
    static let session = CustomScope("session")
}

extension DIKitGuide {  //-
    static func customScopes(container: Container) {  //-
        container.register(Cart.self, scope: .custom(.session)) { _ in Cart() }

        container.reset(scope: .session)   // on logout: every .custom(.session) instance is released
    }  //-

    nonisolated final class KobisBoxOfficeRepository: BoxOfficeRepository {
        private let session: any NetworkSessionType
        init(session: any NetworkSessionType) { self.session = session }
    }
    static func initializerInjection(container: Container) {  //-
        container.register(BoxOfficeRepository.self) { KobisBoxOfficeRepository(session: try $0.resolve()) }
    }  //-
}  //-

/// The types the DIKit guide mentions.
enum DIKitGuide {
    protocol BoxOfficeRepository: Sendable {}
    protocol MovieRepository: Sendable {}

    final class DailyBoxOfficeViewModel: Sendable {
        let repository: any BoxOfficeRepository
        let day: Day
        init(repository: any BoxOfficeRepository, day: Day = .today) {
            self.repository = repository
            self.day = day
        }
    }

    struct Day: Sendable {
        static var today: Day { Day() }
    }

    struct StorageLocation: Sendable {
        let url: URL
    }

    final class Database: Sendable {
        static func open(at url: URL) async throws -> Database { Database() }
    }

    final class Cart: Sendable {}
}
