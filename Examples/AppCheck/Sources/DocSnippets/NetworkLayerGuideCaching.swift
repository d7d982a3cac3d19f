// swift-format-ignore-file
// The docs' code, laid out as the page shows it (see DocSnippets.swift): the HTTP cache section of
// Docs/NetworkLayer.md.
import Binding
import Foundation  //-
import NetworkLayer

enum NetworkLayerCachingGuide {  //-
    static func offlineFirst() async throws -> String {  //-
        var banner = ""  //-
        let cache = HTTPCache(store: MemoryHTTPCacheStore(byteLimit: 20 << 20))   // on disk: recipe 3
        var configuration = NetworkProvider.Configuration()
        configuration.httpCache = cache
        let provider = NetworkProvider(middlewares: [RetryMiddleware()], configuration: configuration)

        var repositories = GitHubAPI.repositories(of: "apple")
        repositories.cachePolicy = .useProtocol.acceptingStaleOnError(upTo: .seconds(7 * 86_400))
        let answer = try await provider.response(for: repositories)
        if case .staleAfterError(let age, let error) = answer.source, error.isOffline {
            banner = "Offline: showing what you saw \(age.components.seconds / 3600) hours ago"
        }
        return banner  //-
    }  //-

    static func posters(posterURL: URL) -> Endpoint<Data> {  //-
        var poster = Endpoint<Data>(url: posterURL)
        poster.cachePolicy = .useProtocol.assumingLifetime(.seconds(30 * 86_400))
        return poster  //-
    }  //-
}  //-

@MainActor
final class RepositoriesViewModel {
    let repositories = Observable<[Repository]>([])
    let note = Observable<String?>(nil)
    private let provider: NetworkProvider

    init(provider: NetworkProvider) { self.provider = provider }

    func load() async {
        do {
            for try await answer in provider.responses(for: GitHubAPI.repositories(of: "apple")) {
                repositories.value = answer.value
                note.value = answer.source.isStale ? "Updating…" : nil
            }
        } catch let error as NetworkError where error.isOffline {
            note.value = "Offline"
        } catch {
            note.value = "\(error)"
        }
    }
}

/// The scaffolding of the caching examples.
nonisolated struct Repository: Decodable, Sendable {}
nonisolated enum GitHubAPI {
    static func repositories(of owner: String) -> Endpoint<[Repository]> {
        EndpointGroup(baseURL: URL(string: "https://api.github.com")!).get("orgs/\(owner)/repos")
    }
}
