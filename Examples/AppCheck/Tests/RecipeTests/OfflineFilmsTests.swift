import CacheKit
import Foundation
import NetworkLayer
import Recipes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Recipe 3: the last answer when the network fails, saying how old it is.
@Suite("Recipe: offline, the last answer")
struct OfflineFilmsTests {
    nonisolated final class Time: @unchecked Sendable {
        // @unchecked Sendable: `now` is only read and written under `lock`.
        private let lock = NSLock()
        private var current = Date(timeIntervalSince1970: 1_800_000_000)
        var now: Date { lock.withLock { current } }
        func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
    }

    let time = Time()
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func films(_ session: StubSession) throws -> OfflineFilms {
        let time = time
        return try OfflineFilms(
            provider: NetworkProvider(session: session), folder: folder.url, user: "user-42",
            clock: CacheClock { time.now })
    }

    @Test func anAnswerFromTheNetworkIsFreshAndKept() async throws {
        let answer = try await films(.json(pageJSON(["Harbin"]))).search("Harbin")
        #expect(answer.value.films.map(\.title) == ["Harbin"])
        #expect(answer.age == nil)
    }

    @Test func offlineTheLastAnswerComesBackWithWhenItWasSaved() async throws {
        // Given an answer kept three hours ago
        _ = try await films(.json(pageJSON(["Harbin"]))).search("Harbin")
        time.advance(3 * 3_600)
        // When the network is gone (a new launch: a new repository over the same folder)
        let offline = try films(.failing(URLError(.notConnectedToInternet)))
        let answer = try await offline.search("Harbin")
        // Then the kept answer comes back, saying how old it is and why
        #expect(answer.value.films.map(\.title) == ["Harbin"])
        #expect(answer.age == .seconds(3 * 3_600))
        #expect(answer.networkError?.isOffline == true)
    }

    @Test func offlineTheKeptAnswerComesWithoutTheRetriesBackoff() async throws {
        // Given an answer kept an hour ago, and a provider that retries with recorded waits
        let waits = Waits()
        let time = time
        let retrying = { (session: StubSession) in
            try OfflineFilms(
                provider: NetworkProvider(
                    session: session, middlewares: [RetryMiddleware(sleep: { waits.add($0) })]),
                folder: self.folder.url, user: "user-42", clock: CacheClock { time.now })
        }
        _ = try await retrying(.json(pageJSON(["Harbin"]))).search("Harbin")
        time.advance(3_600)
        // When the network is gone
        let answer = try await retrying(.failing(URLError(.notConnectedToInternet))).search("Harbin")
        // Then the kept answer came at once: the retry middleware never waited
        #expect(answer.age == .seconds(3_600))
        #expect(waits.count == 0)
    }

    @Test func offlineAnAnswerKeptEightDaysAgoStillComesBack() async throws {
        // Given an answer kept, and eight days on the cache's clock (the disk store's clock too)
        _ = try await films(.json(pageJSON(["Harbin"]))).search("Harbin")
        time.advance(8 * 86_400)
        // When the network is gone
        let answer = try await films(.failing(URLError(.notConnectedToInternet))).search("Harbin")
        // Then the kept answer comes back, eight days old
        #expect(answer.age == .seconds(8 * 86_400))
    }

    @Test func offlineAnAnswerKeptBeforeATokenRenewalStillComesBack() async throws {
        // Given recipe 1's provider, an answer kept with the first token, and the token renewed
        let offline = OfflineSwitch()
        let session = StubSession { request in
            if offline.isOn { throw URLError(.notConnectedToInternet) }
            return (Data(pageJSON(["Harbin"]).utf8), try StubSession.makeResponse(for: request, status: 200))
        }
        let credentials = Recipes.Credentials(accessToken: "token-1") { "token-2" }
        let time = time
        let films = try OfflineFilms(
            provider: AuthenticatedProvider.make(session: session, credentials: credentials),
            folder: folder.url, user: "user-42", clock: CacheClock { time.now })
        _ = try await films.search("Harbin")
        try await credentials.refresh()
        time.advance(3_600)
        // When the network is gone
        offline.turnOn()
        let answer = try await films.search("Harbin")
        // Then the answer kept under the old token is the user's still
        #expect(answer.age == .seconds(3_600))
    }

    @Test func offlineWithNothingKeptTheNetworksErrorIsThrown() async throws {
        let offline = try films(.failing(URLError(.notConnectedToInternet)))
        await #expect(throws: NetworkError.self) { try await offline.search("never asked") }
    }
}

/// A switch a test turns on to take a stub session offline.
nonisolated final class OfflineSwitch: @unchecked Sendable {
    // @unchecked Sendable: `on` is only read and written under `lock`.
    private let lock = NSLock()
    private var on = false
    var isOn: Bool { lock.withLock { on } }
    func turnOn() { lock.withLock { on = true } }
}

/// The waits a retry middleware asked for.
nonisolated final class Waits: @unchecked Sendable {
    // @unchecked Sendable: `waits` is only read and written under `lock`.
    private let lock = NSLock()
    private var waits: [Duration] = []
    var count: Int { lock.withLock { waits.count } }
    func add(_ wait: Duration) { lock.withLock { waits.append(wait) } }
}
