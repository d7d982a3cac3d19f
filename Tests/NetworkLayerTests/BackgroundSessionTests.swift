import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A provider on a background session of its own, against the fixture server. Linux has no background
/// configuration, so the provider is told its session is one (`background:`); what URLSession does with a
/// real background session (going on while the app is suspended, relaunching it) is Apple's alone.
@Suite("Downloads and uploads through a background session")
final class BackgroundSessionTests: Sendable {
    let server: TestServer
    let group: EndpointGroup
    let folder: URL
    /// Removes the folder, and what the tests left in it, when the suite's instance is released.
    private let temporary: TemporaryFolder

    init() async throws {
        server = try await TestServer.shared.value
        group = EndpointGroup(baseURL: server.baseURL)
        temporary = try TemporaryFolder.create("background")
        folder = temporary.url
    }

    /// A provider whose session runs as a background session's (`identifier`'s, a new one by default),
    /// reporting orphaned transfers to `reports`; its downloads would otherwise go in 64 KiB windows.
    func provider(
        identifier: String = UUID().uuidString, sessionConfiguration: URLSessionConfiguration = .ephemeral,
        configuration: NetworkProvider.Configuration = .init(), seams: NetworkProvider.Seams = .init(),
        middlewares: [any NetworkMiddleware] = [], sendsCredentialHeaders: Bool = false,
        reporting reports: AsyncStream<BackgroundTransfer>.Continuation? = nil
    ) -> NetworkProvider {
        var configuration = configuration
        configuration.downloadWindow = 64 << 10
        return NetworkProvider(
            sessionConfiguration: sessionConfiguration, delegate: nil, middlewares: middlewares,
            configuration: configuration, seams: seams,
            background: BackgroundTasks(identifier: identifier, report: { reports?.yield($0) }),
            sendsCredentialHeaders: sendsCredentialHeaders)
    }

    /// The tasks `provider`'s session has now.
    func tasks(of provider: NetworkProvider) async throws -> [URLSessionTask] {
        let session = try session(of: provider)
        return await withCheckedContinuation { answer in session.getAllTasks { answer.resume(returning: $0) }
        }
    }

    /// Expects `failure` to be a refused request because of the background session.
    func expectRefused(_ failure: (any Error)?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case NetworkError.invalidRequest(.backgroundSession)? = failure as? NetworkError else {
            Issue.record(
                "expected a refused background session, got \(String(describing: failure))",
                sourceLocation: sourceLocation)
            return
        }
    }

    func ranged(bytes: Int) -> (Endpoint<Data>, String) {
        let id = UUID().uuidString
        return (group.get("ranged", query: ["bytes": "\(bytes)", "id": id]), id)
    }

    /// The first transfer reported to `reports`, waited for at most 30 s.
    func firstReport(of reports: AsyncStream<BackgroundTransfer>) async throws -> BackgroundTransfer {
        let reported = Recorder<BackgroundTransfer>()
        let arrived = await Watchdog.finishes {
            for await transfer in reports {
                reported.append(transfer)
                return
            }
        }
        #expect(arrived)
        return try #require(reported.values.first)
    }

    /// Starts `task` as a process that finds it without its caller would: no handler, only its note.
    func orphan(_ task: URLSessionTask, note: BackgroundTasks.Note?) {
        task.taskDescription = note?.encoded
        task.resume()
    }

    func session(of provider: NetworkProvider) throws -> URLSession {
        try #require(provider.session as? URLSession)
    }

    // MARK: - What a background session cannot run

    @Test func aSendIsRefusedBeforeAnyTaskIsMade() async throws {
        // Given
        let (endpoint, id) = ranged(bytes: 10)
        // When
        let provider = provider()
        let failure = await error { try await provider.send(endpoint) }
        // Then
        guard case NetworkError.invalidRequest(.backgroundSession(let name)) = try #require(failure) else {
            Issue.record("expected a refused background session, got \(String(describing: failure))")
            return
        }
        #expect(name == endpoint.name)
        #expect(try await tasks(of: provider).isEmpty)
        #expect(try await rangesAsked(id, of: group).isEmpty)
    }

    @Test func aStreamIsRefusedBeforeAnyTaskIsMade() async throws {
        // Given
        let (endpoint, id) = ranged(bytes: 10)
        // When
        let provider = provider()
        let failure = await error { try await provider.stream(endpoint) }
        // Then
        expectRefused(failure)
        #expect(try await tasks(of: provider).isEmpty)
        #expect(try await rangesAsked(id, of: group).isEmpty)
    }

    @Test func anUploadOfDataIsRefused() async throws {
        // Given
        let upload: Endpoint<UploadTests.Received> = group.endpoint(.post, "upload")
        let provider = provider()
        // When
        let failure = await error { try await provider.upload(upload, data: Data([1, 2, 3])) }
        // Then
        expectRefused(failure)
        #expect(try await tasks(of: provider).isEmpty)
    }

    // MARK: - What it runs, with its caller waiting

    @Test func aDownloadRunsAsOneDownloadTaskWhateverTheWindow() async throws {
        // Given a 64 KiB window and a 600 kB body
        let (endpoint, id) = ranged(bytes: 600_000)
        let destination = folder.appendingPathComponent("movie.bin")
        // When
        let file = try await provider().download(endpoint, to: destination)
        // Then it was asked for in one request, not in windows
        #expect(try Data(contentsOf: destination) == patterned(600_000, period: 251))
        #expect(file.byteCount == 600_000)
        #expect(try await rangesAsked(id, of: group) == [""])
    }

    @Test func anUploadFromAFileIsAnsweredAsUsual() async throws {
        // Given
        let upload: Endpoint<UploadTests.Received> = group.endpoint(.post, "upload")
        let data = patterned(300_000, period: 253)
        let file = folder.appendingPathComponent("poster.bin")
        try data.write(to: file)
        // When
        let received = try await provider().upload(upload, fromFile: file)
        // Then
        #expect(received == UploadTests.Received(data))
    }

    @Test func eachTaskCarriesTheNoteAProcessWithoutItsCallerNeeds() async throws {
        // Given a server that never answers, so the transfer stays under way however loaded the machine
        let provider = provider()
        let hang: Endpoint<Data> = group.get("hang")
        let destination = folder.appendingPathComponent("t.bin")
        let download = Task { try? await provider.download(hang, to: destination) }
        // When its task is under way
        var descriptions: [String?] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while descriptions.isEmpty, ContinuousClock.now < deadline {
            descriptions = try await tasks(of: provider).map(\.taskDescription)
            if descriptions.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        }
        download.cancel()
        // Then it names the endpoint and the destination
        let note = try #require(BackgroundTasks.Note(decoding: descriptions.first ?? nil))
        #expect(note == BackgroundTasks.Note(endpoint: hang.name, destination: destination))
        _ = await download.value
    }

    // MARK: - What it reports with no caller waiting

    @Test func anOrphanedDownloadIsMovedToItsDestinationAndReported() async throws {
        // Given a provider made again, and a download task of the process before it
        let (reports, reporter) = AsyncStream.makeStream(of: BackgroundTransfer.self)
        let provider = provider(reporting: reporter)
        let (endpoint, _) = ranged(bytes: 200_000)
        let destination = folder.appendingPathComponent("orphan.bin")
        // When it finishes
        let task = try session(of: provider).downloadTask(with: try endpoint.makeRequest())
        orphan(task, note: .init(endpoint: "trailer", destination: destination))
        let transfer = try await firstReport(of: reports)
        // Then its file is at the destination, and it is reported as a success
        #expect(transfer.endpoint == "trailer")
        #expect(transfer.kind == .download(destination: destination))
        #expect(transfer.response?.statusCode == 200)
        #expect(transfer.error == nil)
        #expect(try Data(contentsOf: destination) == patterned(200_000, period: 251))
    }

    @Test func anOrphanedDownloadWhoseDestinationCannotBeReachedIsKeptAndReportedWhereItIs() async throws {
        // Given a download of the process before, to a folder this process cannot reach (gone)
        let (reports, reporter) = AsyncStream.makeStream(of: BackgroundTransfer.self)
        let provider = provider(reporting: reporter)
        let (endpoint, _) = ranged(bytes: 1_000)
        let destination = folder.appendingPathComponent("gone/orphan.bin")
        // When it finishes
        let task = try session(of: provider).downloadTask(with: try endpoint.makeRequest())
        orphan(task, note: .init(endpoint: "trailer", destination: destination))
        let transfer = try await firstReport(of: reports)
        // Then the file is kept and reported with where it is, and the failure says why
        let kept = try #require(transfer.unplacedFile)
        defer {
            try? FileManager.default.removeItem(at: kept)
            rmdir(kept.deletingLastPathComponent().path)  // the shared folder, only once it is empty
        }
        #expect(try Data(contentsOf: kept) == patterned(1_000, period: 251))
        #expect(kept.lastPathComponent.hasSuffix("-orphan.bin"))
        guard case .file(let error) = transfer.error else {
            Issue.record("expected a file error, got \(String(describing: transfer.error))")
            return
        }
        #expect((error as? POSIXError)?.code == .ENOENT)
    }

    @Test func anOrphanedDownloadTheServerRefusedLeavesNoFileAndIsReportedWithItsStatus() async throws {
        // Given
        let (reports, reporter) = AsyncStream.makeStream(of: BackgroundTransfer.self)
        let provider = provider(reporting: reporter)
        let destination = folder.appendingPathComponent("missing.bin")
        let task = try session(of: provider).downloadTask(
            with: server.baseURL.appendingPathComponent("status/404"))
        // When
        orphan(task, note: .init(endpoint: "missing", destination: destination))
        let transfer = try await firstReport(of: reports)
        // Then
        guard case .unacceptableStatus(let failure) = transfer.error else {
            Issue.record("expected a refused status, got \(String(describing: transfer.error))")
            return
        }
        #expect(failure.statusCode == 404)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test func anOrphanedUploadIsReportedWithItsAnswer() async throws {
        // Given
        let (reports, reporter) = AsyncStream.makeStream(of: BackgroundTransfer.self)
        let provider = provider(reporting: reporter)
        let data = patterned(100_000, period: 253)
        let file = folder.appendingPathComponent("form.bin")
        try data.write(to: file)
        var request = URLRequest(url: server.baseURL.appendingPathComponent("upload"))
        request.httpMethod = "POST"
        // When
        orphan(
            try session(of: provider).uploadTask(with: request, fromFile: file),
            note: .init(endpoint: "poster", destination: nil))
        let transfer = try await firstReport(of: reports)
        // Then
        #expect(transfer.kind == .upload)
        #expect(transfer.error == nil)
        #expect(try JSONDecoder().decode(UploadTests.Received.self, from: transfer.body) == .init(data))
    }

    @Test func aTaskWithoutANoteIsNotReported() async throws {
        // Given a task NetworkLayer did not start, which has ended
        let (reports, reporter) = AsyncStream.makeStream(of: BackgroundTransfer.self)
        let provider = provider(reporting: reporter)
        let (endpoint, _) = ranged(bytes: 1_000)
        let foreign = try session(of: provider).downloadTask(with: try endpoint.makeRequest())
        orphan(foreign, note: nil)
        #expect(
            await Watchdog.finishes {
                while foreign.state != .completed { try? await Task.sleep(for: .milliseconds(5)) }
            })
        // When one of its own ends after it
        let own = try session(of: provider).downloadTask(with: try endpoint.makeRequest())
        orphan(own, note: .init(endpoint: "own", destination: folder.appendingPathComponent("own.bin")))
        // Then only that one is reported
        #expect(try await firstReport(of: reports).endpoint == "own")
    }

    // MARK: - What it guards

    @Test func aCredentialHeaderIsRefusedBeforeAnyTaskIsMade() async throws {
        // Given an endpoint with a token, which a background session would send along any redirect
        var (endpoint, id) = ranged(bytes: 1_000)
        endpoint.headers["Authorization"] = "Bearer secret"
        let provider = provider()
        // When
        let failure = await error {
            try await provider.download(endpoint, to: self.folder.appendingPathComponent("a.bin"))
        }
        // Then
        guard
            case NetworkError.invalidRequest(.credentialHeaderInBackground(let name, let header))? =
                failure as? NetworkError
        else {
            Issue.record("expected a refused credential header, got \(String(describing: failure))")
            return
        }
        #expect((name, header) == (endpoint.name, "Authorization"))
        #expect(try await tasks(of: provider).isEmpty)
        #expect(try await rangesAsked(id, of: group).isEmpty)
    }

    @Test func aCredentialHeaderOfTheSessionsConfigurationIsRefusedToo() async throws {
        // Given an API key in the session's configuration
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.httpAdditionalHeaders = ["X-Api-Key": "secret"]
        let upload: Endpoint<UploadTests.Received> = group.endpoint(.post, "upload")
        let file = folder.appendingPathComponent("form.bin")
        try Data([1, 2, 3]).write(to: file)
        // When
        let failure = await error {
            try await self.provider(sessionConfiguration: sessionConfiguration).upload(upload, fromFile: file)
        }
        // Then
        guard
            case NetworkError.invalidRequest(.credentialHeaderInBackground(_, "X-Api-Key"))? =
                failure as? NetworkError
        else {
            Issue.record("expected a refused credential header, got \(String(describing: failure))")
            return
        }
    }

    @Test func aProviderThatSendsCredentialHeadersDownloadsWithThem() async throws {
        // Given
        var (endpoint, _) = ranged(bytes: 1_000)
        endpoint.headers["Authorization"] = "Bearer secret"
        let destination = folder.appendingPathComponent("a.bin")
        // When
        let file = try await provider(sendsCredentialHeaders: true).download(endpoint, to: destination)
        // Then
        #expect(file.byteCount == 1_000)
    }

    @Test func theEndpointsDeadlineArmsNoTimerThatWouldCancelTheTaskWhenTheAppWakes() async throws {
        // Given an endpoint with a total deadline, and the provider's own timer
        var seams = NetworkProvider.Seams()
        seams.deadlines = DeadlineTimer()
        var (endpoint, _) = ranged(bytes: 10_000)
        endpoint.deadline = .seconds(60)
        let upload: Endpoint<UploadTests.Received> = {
            var upload: Endpoint<UploadTests.Received> = group.endpoint(.post, "upload")
            upload.deadline = .seconds(60)
            return upload
        }()
        let body = folder.appendingPathComponent("body.bin")
        try Data([1, 2, 3]).write(to: body)
        let provider = provider(seams: seams)
        // When
        _ = try await provider.download(endpoint, to: folder.appendingPathComponent("d.bin"))
        _ = try await provider.upload(upload, fromFile: body)
        // Then
        #expect(seams.deadlines.watches == 0)
    }

    @Test func providersMadeAgainWithAnIdentifierShareItsSessionAndTheNewestHearsOfOrphans() async throws {
        // Given a provider, released, and another made with the same identifier
        let identifier = UUID().uuidString
        var first: NetworkProvider? = provider(identifier: identifier)
        let firstSession = try session(of: try #require(first))
        first = nil
        let (reports, reporter) = AsyncStream.makeStream(of: BackgroundTransfer.self)
        let second = provider(identifier: identifier, reporting: reporter)
        // When a task of the first one's ends
        let (endpoint, _) = ranged(bytes: 1_000)
        let destination = folder.appendingPathComponent("shared.bin")
        orphan(
            firstSession.downloadTask(with: try endpoint.makeRequest()),
            note: .init(endpoint: "shared", destination: destination))
        // Then the session is one, still valid, and the second provider hears of it
        #expect(try session(of: second) === firstSession)
        #expect(try await firstReport(of: reports).endpoint == "shared")
        _ = try await second.download(endpoint, to: destination)
    }

    @Test func anOrphanedPartOfAFileIsNotPutInPlace() async throws {
        // Given a download task whose answer is a 206 for part of the file
        let (reports, reporter) = AsyncStream.makeStream(of: BackgroundTransfer.self)
        let provider = provider(reporting: reporter)
        let (endpoint, _) = ranged(bytes: 1_000)
        var request = try endpoint.makeRequest()
        request.setValue("bytes=0-99", forHTTPHeaderField: "Range")
        let destination = folder.appendingPathComponent("part.bin")
        // When it ends with no caller
        orphan(
            try session(of: provider).downloadTask(with: request),
            note: .init(endpoint: "part", destination: destination))
        let transfer = try await firstReport(of: reports)
        // Then
        #expect(transfer.response?.statusCode == 206)
        guard case .transport(let error) = transfer.error else {
            Issue.record("expected a refused partial answer, got \(String(describing: transfer.error))")
            return
        }
        #expect(error.code == .cannotParseResponse)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test func anOrphanedMultipartUploadRemovesItsTemporaryForm() async throws {
        // Given a form NetworkLayer wrote, holding a password, uploaded by a task with no caller
        let (reports, reporter) = AsyncStream.makeStream(of: BackgroundTransfer.self)
        let provider = provider(reporting: reporter)
        let form = FileManager.default.temporaryDirectory.appendingPathComponent(
            BackgroundTasks.Note.temporaryBodyPrefix + UUID().uuidString)
        try Data("password=secret".utf8).write(to: form)
        var request = URLRequest(url: server.baseURL.appendingPathComponent("upload"))
        request.httpMethod = "POST"
        // When it ends
        orphan(
            try session(of: provider).uploadTask(with: request, fromFile: form),
            note: .upload(endpoint: "form", body: .file(form)))
        _ = try await firstReport(of: reports)
        // Then the form is gone
        #expect(!FileManager.default.fileExists(atPath: form.path))
    }

    @Test func aCredentialHeaderAMiddlewareAddsIsRefusedWhateverItsCase() async throws {
        // Given a token added by a middleware, and one set in lower case
        let (endpoint, id) = ranged(bytes: 1_000)
        var lowercase = endpoint
        lowercase.headers["authorization"] = "Bearer secret"
        let authorized = provider(middlewares: [AuthorizationMiddleware(hosts: ["127.0.0.1"]) { "secret" }])
        // When
        let failures = [
            await error {
                try await authorized.download(endpoint, to: self.folder.appendingPathComponent("a"))
            },
            await error {
                try await self.provider().download(lowercase, to: self.folder.appendingPathComponent("b"))
            },
        ]
        // Then neither is sent
        for failure in failures {
            guard case NetworkError.invalidRequest(.credentialHeaderInBackground)? = failure as? NetworkError
            else {
                Issue.record("expected a refused credential header, got \(String(describing: failure))")
                continue
            }
        }
        #expect(try await rangesAsked(id, of: group).isEmpty)
    }

    @Test func eachProviderSharingASessionSendsOnlyItsOwnCredentialsAsItsOwnFlagAllows() async throws {
        // Given a provider that may send user A's key, then user B's providers on the same session
        let identifier = UUID().uuidString
        func configured(_ key: String) -> URLSessionConfiguration {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpAdditionalHeaders = ["X-Api-Key": key]
            return configuration
        }
        let echo: Endpoint<Data> = group.get("echo")
        _ = provider(
            identifier: identifier, sessionConfiguration: configured("A"), sendsCredentialHeaders: true)
        let refusing = provider(identifier: identifier, sessionConfiguration: configured("B"))
        let sending = provider(
            identifier: identifier, sessionConfiguration: configured("B"), sendsCredentialHeaders: true)
        // When
        let refused = await error {
            try await refusing.download(echo, to: self.folder.appendingPathComponent("r"))
        }
        let file = try await sending.download(echo, to: folder.appendingPathComponent("s"))
        let keylessFile = try await provider(identifier: identifier, sendsCredentialHeaders: true)
            .download(echo, to: folder.appendingPathComponent("k"))
        // Then the first B refuses, as it was made to, and the second sends B's key, not A's
        guard
            case NetworkError.invalidRequest(.credentialHeaderInBackground(_, "X-Api-Key"))? = refused
                as? NetworkError
        else {
            Issue.record("expected a refused credential header, got \(String(describing: refused))")
            return
        }
        let echoed = try JSONDecoder().decode(Echo.self, from: Data(contentsOf: file.url))
        #expect(echoed.headers["x-api-key"] == "B")
        // and one with no key of its own sends none, A's least of all
        let keylessEcho = try JSONDecoder().decode(Echo.self, from: Data(contentsOf: keylessFile.url))
        #expect(keylessEcho.headers["x-api-key"] == nil)
    }

    @Test func aDownloadIsStagedBesideItsDestinationBeforeTheMiddlewaresSeeItsAnswer() async throws {
        // Given a middleware that looks at the destination's folder as soon as the transport answers
        struct LooksAtTheFolder: NetworkMiddleware {
            let destination: URL
            let seen: Recorder<[String]>
            func intercept(
                _ request: URLRequest, context: RequestContext, next: Next
            ) async throws -> (Data, HTTPURLResponse) {
                let answer = try await next(request)
                let folder = destination.deletingLastPathComponent().path
                seen.append((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                return answer
            }
        }
        let destination = folder.appendingPathComponent("placed.bin")
        let seen = Recorder<[String]>()
        let (endpoint, _) = ranged(bytes: 10_000)
        // When
        _ = try await provider(middlewares: [LooksAtTheFolder(destination: destination, seen: seen)])
            .download(endpoint, to: destination)
        // Then the file was already out of URLSession's folder (the system may suspend the app before the
        // caller runs again), staged beside the destination, which it replaced only once accepted
        let names = try #require(seen.values.first)
        #expect(names.count == 1)
        #expect(names.first != "placed.bin")
        #expect(names.first?.hasPrefix(".") == true)
        #expect(try Data(contentsOf: destination).count == 10_000)
    }

    @Test func anOrphanedDownloadTaskWhoseNoteNamesNoDestinationIsNotReported() async throws {
        // Given a download task whose note names no destination, then one whose note does
        let (reports, reporter) = AsyncStream.makeStream(of: BackgroundTransfer.self)
        let provider = provider(reporting: reporter)
        let (endpoint, _) = ranged(bytes: 1_000)
        let headless = try session(of: provider).downloadTask(with: try endpoint.makeRequest())
        orphan(headless, note: .init(endpoint: "nowhere", destination: nil))
        #expect(
            await Watchdog.finishes {
                while headless.state != .completed { try? await Task.sleep(for: .milliseconds(5)) }
            })
        // When
        orphan(
            try session(of: provider).downloadTask(with: try endpoint.makeRequest()),
            note: .init(endpoint: "somewhere", destination: folder.appendingPathComponent("s.bin")))
        // Then only the second is reported, never as an upload
        #expect(try await firstReport(of: reports).endpoint == "somewhere")
    }

    @Test func urlSessionsOwnResponseRefusesABackgroundSessionBeforeAnyTaskIsMade() async throws {
        // Given a session whose configuration has an identifier, as a background one has (Linux has no
        // background configuration, but lets a configuration be given an identifier)
        #if canImport(FoundationNetworking)
            let configuration = URLSessionConfiguration.ephemeral
            configuration.identifier = "downloads-\(UUID().uuidString)"
        #else
            let configuration = URLSessionConfiguration.background(
                withIdentifier: "downloads-\(UUID().uuidString)")
        #endif
        let session = URLSession(configuration: configuration)
        // When
        let failure = await error {
            try await session.response(
                for: URLRequest(url: self.server.baseURL.appendingPathComponent("json")))
        }
        // Then
        expectRefused(failure)
        let tasks = await withCheckedContinuation { answer in
            session.getAllTasks { answer.resume(returning: $0) }
        }
        #expect(tasks.isEmpty)
    }
}
