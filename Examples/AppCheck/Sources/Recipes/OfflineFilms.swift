// swift-format-ignore-file
// Docs/Recipes.md quotes this file line for line: laid out as the page shows it.
import CacheKit
import Foundation
import NetworkLayer

/// A value, and whether it is the network's answer or an older one kept for when the network fails.
nonisolated public struct Fresh<Value: Sendable>: Sendable {
    /// The value.
    public let value: Value
    /// When the value was saved, if it came from the cache because the network failed; `nil` when it is
    /// the network's answer.
    public let savedAt: Date?
    /// Why the network failed, when the value came from the cache.
    public let networkError: NetworkError?
}

/// What the cache keeps of an answer: the page, and when it arrived.
nonisolated struct KeptPage: Codable, Sendable, DataConvertible {
    let page: FilmPage
    let savedAt: Date
}

/// Recipe 3: the network's answer when it comes, and the last one kept when it does not.
nonisolated public final class OfflineFilms: Sendable {
    private let provider: NetworkProvider
    private let kept: Cache<KeptPage>
    private let clock: CacheClock

    /// Creates the repository.
    /// - Parameters:
    ///   - provider: Sends the requests.
    ///   - folder: Where the last answers are kept, across launches.
    ///   - clock: The time answers are saved at; the system's by default.
    public init(provider: NetworkProvider, folder: URL, clock: CacheClock = .system) throws {
        self.provider = provider
        self.clock = clock
        kept = Cache(
            memory: MemoryStorage(clock: clock),
            disk: try DiskStorage(configuration: .init(directory: folder, expiration: .days(30)), clock: clock))
    }

    /// The first page of films matching `text`: the network's, kept for later; or, when the network
    /// fails, the one kept last time, saying when it was saved. Without one, the network's error.
    public func search(_ text: String) async throws -> Fresh<FilmPage> {
        let key = "search \(text)"
        do {
            let page = try await provider.send(FilmAPI.search(text, page: 1))
            try? await kept.store(KeptPage(page: page, savedAt: clock.now()), forKey: key)
            return Fresh(value: page, savedAt: nil, networkError: nil)
        } catch let error as NetworkError {
            guard let last = await kept.value(forKey: key) else { throw error }
            return Fresh(value: last.page, savedAt: last.savedAt, networkError: error)
        }
    }
}
