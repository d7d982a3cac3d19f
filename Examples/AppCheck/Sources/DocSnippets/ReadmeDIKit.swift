// swift-format-ignore-file
// The docs' code, laid out as the page shows it (see DocSnippets.swift).
import Foundation  //-
import NetworkLayer  //-
#if canImport(FoundationNetworking)  //-
    import FoundationNetworking  //-
#endif  //-
import DIKit

extension ReadmeDIKit {  //-
    static func tour() async throws {  //-
        let container = Container()
        container.register(NetworkSessionType.self, scope: .singleton) { _ in URLSession.shared }
        container.register(KobisBoxOfficeRepository.self, scope: .singleton) { resolver in
            KobisBoxOfficeRepository(session: try resolver.resolve())
        }
        .implements(BoxOfficeRepository.self, MovieRepository.self)   // one instance, two protocols
        container.registerOnMainActor(ChartViewModel.self) { @MainActor resolver in   // runs on the main actor
            ChartViewModel(repository: try resolver.resolve())
        }
        container.registerAsync(Database.self, scope: .singleton) { _ in try await Database.open() }   // made once

        let repository: BoxOfficeRepository = try container.resolve()
        let database: Database = try await container.resolveAsync()
        let report = try container.verify()   // all failures at once, each with its path; captive dependencies
        _ = (repository, database, report)  //-
    }  //-
}  //-

/// The types the README's DIKit tour mentions.
enum ReadmeDIKit {
    protocol BoxOfficeRepository: Sendable {}
    protocol MovieRepository: Sendable {}

    nonisolated final class KobisBoxOfficeRepository: BoxOfficeRepository, MovieRepository {
        let session: any NetworkSessionType
        init(session: any NetworkSessionType) { self.session = session }
    }

    @MainActor final class ChartViewModel {
        let repository: any BoxOfficeRepository
        init(repository: any BoxOfficeRepository) { self.repository = repository }
    }

    final class Database: Sendable {
        static func open() async throws -> Database { Database() }
    }
}
