import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One token refresh among the processes of an app group. Two middlewares, each with its own
/// `SharedRefresh` on one folder, stand in for two processes here (an `flock` belongs to the open file,
/// so they exclude each other as two processes do); `SharedRefreshProcessTests` runs real processes.
@Suite("Token refresh shared across processes", .timeLimit(.minutes(1)))
struct SharedRefreshTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder.create("shared-refresh")
    }

    /// A server that accepts only `valid`'s token, and an app whose refresh makes a new one valid.
    final class Account: Sendable {
        let token = Locked("access-0")
        let valid = Locked("none")
        let refreshes = Locked(0)

        func refresh() async throws {
            try await Task.sleep(for: .milliseconds(100))
            let round = refreshes.withLock {
                $0 += 1
                return $0
            }
            valid.withLock { $0 = "access-\(round)" }
            token.withLock { $0 = "access-\(round)" }
        }

        var session: StubSession {
            StubSession { [valid] request in
                let sent = request.value(forHTTPHeaderField: "Authorization")
                let status = sent == "Bearer " + valid.withLock { $0 } ? 200 : 401
                return (Data(), try StubSession.makeResponse(for: request, status: status))
            }
        }

        func provider(_ refresh: TokenRefreshMiddleware) -> NetworkProvider {
            NetworkProvider(
                session: session,
                middlewares: [
                    refresh,
                    AuthorizationMiddleware(hosts: [exampleURL.host ?? ""]) { [token] in token.withLock { $0 }
                    },
                ])
        }
    }

    func middleware(_ account: Account, waitLimit: Duration = .seconds(60)) -> TokenRefreshMiddleware {
        TokenRefreshMiddleware(sharedAcross: SharedRefresh(folder: folder.url, waitLimit: waitLimit)) {
            try await account.refresh()
        }
    }

    @Test func twoProcessesMeetingA401AtOnceRefreshOnceAndBothSucceed() async throws {
        // Given an app and its extension, each with its own middleware on the group's folder
        let account = Account()
        let app = account.provider(middleware(account))
        let widget = account.provider(middleware(account))
        // When both send a request the server refuses, at once
        async let first: Data = app.send(Endpoint<Data>(baseURL: exampleURL, path: "inbox"))
        async let second: Data = widget.send(Endpoint<Data>(baseURL: exampleURL, path: "inbox"))
        _ = try await (first, second)
        // Then one refresh ran, and the record says so
        #expect(account.refreshes.withLock { $0 } == 1)
        #expect(SharedRefresh(folder: folder.url).refreshCount == 1)
        #expect(SharedRefresh(folder: folder.url).lastRefresh != nil)
    }

    @Test func aRequestSentAfterAnotherProcessRefreshedAndRefusedRefreshesAgain() async throws {
        // Given a refresh another process finished earlier, and a token that has expired since
        let account = Account()
        let app = account.provider(middleware(account))
        try await account.refresh()
        _ = try await SharedRefresh(folder: folder.url).refreshOnce(sentAt: { (0, Date()) }, running: {})
        account.valid.withLock { $0 = "expired again" }
        // When a request sent after that refresh is refused
        _ = try? await app.send(Endpoint<Data>(baseURL: exampleURL, path: "inbox"))
        // Then this process refreshes: the earlier refresh is older than its request
        #expect(account.refreshes.withLock { $0 } == 2)
        #expect(SharedRefresh(folder: folder.url).refreshCount == 2)
    }

    @Test func aRequestThatCouldNotReadTheCountIsJudgedByTheDateOfTheLastRefresh() async throws {
        // Given a record that says three refreshes finished, the last one now
        let shared = SharedRefresh(folder: folder.url)
        for _ in 0..<3 { _ = try await shared.refreshOnce(sentAt: { (nil, .distantFuture) }, running: {}) }
        // When refusals come for requests that could not read the count before they were sent
        let sentBefore = try await shared.refreshOnce(sentAt: { (nil, .distantPast) }, running: {})
        let sentAfter = try await shared.refreshOnce(sentAt: { (nil, .distantFuture) }, running: {})
        // Then one sent before that refresh does not refresh again, and one sent after it does
        #expect(!sentBefore)
        #expect(sentAfter)
        #expect(shared.refreshCount == 4)
    }

    @Test func aRefreshForARequestSentBeforeAnotherProcessRefreshedDoesNotRun() async throws {
        // Given a request sent when the record said 0, and a refresh by another process since
        let shared = SharedRefresh(folder: folder.url)
        let sentAt = shared.countBeforeSending()
        _ = try await SharedRefresh(folder: folder.url).refreshOnce(sentAt: { (0, Date()) }, running: {})
        // When its refusal comes, then it does not refresh again
        let ran = try await shared.refreshOnce(sentAt: { (sentAt, Date()) }, running: {})
        #expect(sentAt == 0)
        #expect(!ran)
        #expect(shared.refreshCount == 1)
    }

    @Test func aRefreshWaitingLongerThanItsLimitFailsWithWaitTimedOut() async throws {
        // Given another process holding the lock, and a middleware that waits at most 100 ms
        let holder = open(
            folder.url.appendingPathComponent(SharedRefresh.fileName).path, O_RDWR | O_CREAT, 0o600)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)
        let account = Account()
        let app = account.provider(middleware(account, waitLimit: .milliseconds(100)))
        // When a request is refused
        let thrown = await error { try await app.send(Endpoint<Data>(baseURL: exampleURL, path: "inbox")) }
        // Then the refresh fails with the wait's error, and nothing refreshed
        #expect("\(String(describing: thrown))".contains("another process's token refresh"))
        #expect(account.refreshes.withLock { $0 } == 0)
    }

    @Test func aRecordThatIsNotOursCountsAsNoRefreshYet() throws {
        // Given a record file holding bytes this type never wrote
        try Data(repeating: 0xee, count: 24).write(
            to: folder.url.appendingPathComponent(SharedRefresh.fileName))
        // When its count is read, then it is 0 and no date
        #expect(SharedRefresh(folder: folder.url).refreshCount == 0)
        #expect(SharedRefresh(folder: folder.url).lastRefresh == nil)
    }

    @Test func aPipeInPlaceOfTheRecordFailsTheRefreshInsteadOfBlocking() async throws {
        // Given a FIFO under the record's name
        #expect(mkfifo(folder.url.appendingPathComponent(SharedRefresh.fileName).path, 0o600) == 0)
        let account = Account()
        let app = account.provider(middleware(account))
        // When a request is refused
        let thrown = await error { try await app.send(Endpoint<Data>(baseURL: exampleURL, path: "inbox")) }
        // Then the refresh fails at once, unrun
        #expect(thrown != nil)
        #expect(account.refreshes.withLock { $0 } == 0)
    }
}
