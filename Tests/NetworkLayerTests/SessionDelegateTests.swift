import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session a caller gives the provider keeps its say over every kind of request: its delegate
/// answers their challenges, its credential headers stay on their origin, and a background session is
/// refused before any task is made. Against the fixture server on 127.0.0.1.
@Suite("The caller's session")
struct SessionDelegateTests {
    let server: TestServer
    let group: EndpointGroup

    init() async throws {
        server = try await TestServer.shared.value
        group = EndpointGroup(baseURL: server.baseURL)
    }

    /// A session delegate that answers HTTP Basic challenges with fixed credentials and counts them.
    final class BasicAuthDelegate: NSObject, URLSessionTaskDelegate, Sendable {
        let challenges = Recorder<String>()

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
            completionHandler:
                @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            challenges.append(challenge.protectionSpace.authenticationMethod)
            guard challenge.previousFailureCount == 0 else {
                completionHandler(.cancelAuthenticationChallenge, nil)
                return
            }
            completionHandler(
                .useCredential, URLCredential(user: "ada", password: "lovelace", persistence: .forSession))
        }
    }

    struct User: Decodable, Sendable {
        let user: String
    }

    func authenticated(_ method: HTTPMethod = .get) -> Endpoint<User> {
        group.endpoint(
            method, "auth",
            query: [.init(name: "user", value: "ada"), .init(name: "password", value: "lovelace")],
            as: User.self)
    }

    func provider(delegate: BasicAuthDelegate) -> NetworkProvider {
        NetworkProvider(
            session: URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil))
    }

    @Test func aWholeBodyRequestsChallengeIsAnsweredByTheSessionsDelegate() async throws {
        // Given a session whose delegate knows the credentials
        let delegate = BasicAuthDelegate()
        // When
        let user = try await provider(delegate: delegate).send(authenticated())
        // Then
        #expect(user.user == "ada")
        #expect(delegate.challenges.values == [NSURLAuthenticationMethodHTTPBasic])
    }

    @Test func aStreamsChallengeIsAnsweredByTheSessionsDelegate() async throws {
        let delegate = BasicAuthDelegate()
        // When
        let stream = try await provider(delegate: delegate).stream(authenticated())
        var body = Data()
        for try await chunk in stream { body.append(chunk) }
        // Then
        #expect(try JSONDecoder().decode(User.self, from: body).user == "ada")
        #expect(delegate.challenges.values == [NSURLAuthenticationMethodHTTPBasic])
    }

    @Test func aDownloadsChallengeIsAnsweredByTheSessionsDelegate() async throws {
        let delegate = BasicAuthDelegate()
        let temporary = try TemporaryFolder.create("SessionDelegate")
        let folder = temporary.url
        let destination = folder.appendingPathComponent("user.json")
        // When
        _ = try await provider(delegate: delegate).download(authenticated(), to: destination)
        // Then
        let user = try JSONDecoder().decode(User.self, from: Data(contentsOf: destination))
        #expect(user.user == "ada")
        #expect(delegate.challenges.values == [NSURLAuthenticationMethodHTTPBasic])
    }

    @Test func aDownloadTasksChallengeIsAnsweredByTheSessionsDelegate() async throws {
        // Given a provider whose downloads are download tasks, as on Apple platforms
        let delegate = BasicAuthDelegate()
        var configuration = NetworkProvider.Configuration()
        configuration.downloadWindow = nil
        var seams = NetworkProvider.Seams()
        seams.downloadsWithTasks = true
        let provider = NetworkProvider(
            session: URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil),
            middlewares: [], configuration: configuration, seams: seams)
        let scratch = try TemporaryFolder.create("SessionDelegate")
        let folder = scratch.url
        let destination = folder.appendingPathComponent("user.json")
        let temporary = URL(fileURLWithPath: NSTemporaryDirectory())
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: temporary.path))
        defer {
            // FoundationNetworking leaves the challenged answer's file (its `{}` body) there: removed.
            let new = Set((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [])
            for name in new.subtracting(before)
            where (try? Data(contentsOf: temporary.appendingPathComponent(name))) == Data("{}".utf8) {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }
        // When
        let failure = await error { try await provider.download(authenticated(), to: destination) }
        // Then the delegate answered the challenge
        #expect(delegate.challenges.values == [NSURLAuthenticationMethodHTTPBasic])
        #if canImport(FoundationNetworking)
            let reportsTheFirstAnswer = true
        #else
            let reportsTheFirstAnswer = false
        #endif
        withKnownIssue(
            "FoundationNetworking gives a download task the first answer (401) as its response after the retry got 200 (in most runs, measured); Linux downloads run on data tasks",
            isIntermittent: true
        ) {
            #expect(failure == nil)
            let file = try? Data(contentsOf: destination)
            #expect(file.flatMap { try? JSONDecoder().decode(User.self, from: $0) }?.user == "ada")
        } when: {
            reportsTheFirstAnswer
        }
    }

    @Test func anUploadsChallengeIsAnsweredByTheSessionsDelegate() async throws {
        let delegate = BasicAuthDelegate()
        // When
        let user = try await provider(delegate: delegate).upload(
            authenticated(.post), data: Data("hello".utf8))
        // Then
        #expect(user.user == "ada")
        #expect(delegate.challenges.values == [NSURLAuthenticationMethodHTTPBasic])
    }

    @Test func withoutADelegateAChallengeGetsTheDefaultHandling() async throws {
        // Given a session without a delegate: nobody supplies credentials
        let provider = NetworkProvider(session: URLSession(configuration: .ephemeral))
        // When
        let error = await error { try await provider.send(authenticated()) }
        // Then the server's 401 is the answer
        guard case .unacceptableStatus(let failure)? = error as? NetworkError else {
            Issue.record("expected a 401, got \(String(describing: error))")
            return
        }
        #expect(failure.statusCode == 401)
    }

    @Test func theChallengeIsAnsweredOnTheSessionsOwnDelegateQueue() async throws {
        // Given a session whose delegate queue is a named queue of the caller's
        let queue = OperationQueue()
        queue.name = "caller's delegate queue"
        queue.maxConcurrentOperationCount = 1
        let delegate = QueueRecordingDelegate()
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: queue)
        // When
        _ = try await NetworkProvider(session: session).send(authenticated())
        // Then the delegate was called there
        #expect(delegate.queues.values == ["caller's delegate queue"])
    }

    /// Answers Basic challenges and records the name of the queue it was called on.
    final class QueueRecordingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
        let queues = Recorder<String>()

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
            completionHandler:
                @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            queues.append(OperationQueue.current?.name ?? "none")
            completionHandler(
                .useCredential, URLCredential(user: "ada", password: "lovelace", persistence: .forSession))
        }
    }

    @Test func aCredentialHeaderOfTheSessionConfigurationStaysOnItsOrigin() async throws {
        // Given a session configuration carrying an API key for every request
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["X-Api-Key": "S3NT1NEL-KEY", "Accept-Language": "ko"]
        let provider = NetworkProvider(session: URLSession(configuration: configuration))
        let port = try #require(server.baseURL.port)
        func echo(redirectingTo target: String) async throws -> Echo {
            try await provider.send(
                group.get("redirect-to", query: ["url": target], as: Echo.self))
        }
        // When one request is redirected to another origin and one within its own
        let elsewhere = try await echo(redirectingTo: "http://localhost:\(port)/echo")
        let home = try await echo(redirectingTo: server.baseURL.appendingPathComponent("echo").absoluteString)
        // Then the key does not reach the other host, and other headers do
        #expect(elsewhere.path == "/echo")
        #expect(elsewhere.headers["x-api-key"] == nil)
        #expect(elsewhere.headers["accept-language"] == "ko")
        #expect(home.headers["x-api-key"] == "S3NT1NEL-KEY")
    }

    @Test func aSessionHeaderDeclaredAfterTheProviderWasMadeStaysOnItsOrigin() async throws {
        // Given a session configuration header with a name nobody has declared yet, on a provider that
        // has sent a request
        let name = "X-Late-\(UUID().uuidString.prefix(8))"
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = [name: "LATE-SECRET-VALUE"]
        let provider = NetworkProvider(session: URLSession(configuration: configuration))
        let port = try #require(server.baseURL.port)
        _ = try await provider.send(group.get("echo", as: Echo.self))
        // When the name is declared a credential's afterwards, and a request is redirected elsewhere
        Credentials.declare(headerNames: [name])
        let elsewhere = try await provider.send(
            group.get("redirect-to", query: ["url": "http://localhost:\(port)/echo"], as: Echo.self))
        let home = try await provider.send(group.get("echo", as: Echo.self))
        // Then the rule as it stands at the redirect keeps it home
        #expect(elsewhere.path == "/echo")
        #expect(elsewhere.headers[name.lowercased()] == nil)
        #expect(home.headers[name.lowercased()] == "LATE-SECRET-VALUE")
    }

    @Test func aCredentialHeaderOfTheSessionStaysOnItsOriginForADownloadToo() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["X-Api-Key": "S3NT1NEL-KEY"]
        let provider = NetworkProvider(session: URLSession(configuration: configuration))
        let port = try #require(server.baseURL.port)
        let temporary = try TemporaryFolder.create("SessionHeaders")
        let folder = temporary.url
        let destination = folder.appendingPathComponent("echo.json")
        // When
        _ = try await provider.download(
            group.get("redirect-to", query: ["url": "http://localhost:\(port)/echo"], as: Data.self),
            to: destination)
        // Then
        let echo = try JSONDecoder().decode(Echo.self, from: Data(contentsOf: destination))
        #expect(echo.headers["x-api-key"] == nil)
    }
}
