import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads that URLSession writes itself with download tasks: the default on Apple platforms, run here
/// through the internal switch (resume data is Apple's alone: FoundationNetworking gives none).
@Suite("Downloads written by URLSession's download tasks")
final class DownloadTaskTests: Sendable {
    let server: TestServer
    let group: EndpointGroup
    let folder: URL
    /// Removes the folder, and what the tests left in it, when the suite's instance is released.
    private let temporary: TemporaryFolder

    init() async throws {
        server = try await TestServer.shared.value
        group = EndpointGroup(baseURL: server.baseURL)
        temporary = try TemporaryFolder.create("download-tasks")
        folder = temporary.url
    }

    /// The files FoundationNetworking's temporary folder holds now.
    func temporaryFiles() throws -> Set<String> {
        try Set(FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))
    }

    /// A provider whose downloads are download tasks, as on Apple platforms.
    func provider(_ middlewares: [any NetworkMiddleware] = []) -> NetworkProvider {
        var configuration = NetworkProvider.Configuration()
        configuration.downloadWindow = nil
        var seams = NetworkProvider.Seams()
        seams.downloadsWithTasks = true
        return NetworkProvider(
            session: URLSession(configuration: .ephemeral), middlewares: middlewares,
            configuration: configuration, seams: seams)
    }

    func ranged(bytes: Int) -> (Endpoint<Data>, String) {
        let id = UUID().uuidString
        return (group.get("ranged", query: ["bytes": "\(bytes)", "id": id]), id)
    }

    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".part") }
    }

    @Test func aDownloadTaskWritesTheWholeBodyToTheDestinationInOneRequest() async throws {
        // Given
        let (endpoint, id) = ranged(bytes: 600_000)
        let destination = folder.appendingPathComponent("movie.bin")
        // When
        let file = try await provider().download(endpoint, to: destination)
        // Then
        #expect(try Data(contentsOf: destination) == patterned(600_000, period: 251))
        #expect(file.byteCount == 600_000)
        #expect(file.response.statusCode == 200)
        #expect(file.resumeCount == 0)
        #expect(try await rangesAsked(id, of: group) == [""])
        #expect(try leftovers().isEmpty)
    }

    @Test func theTransferRunsAsADownloadTaskOnTheProvidersSession() async throws {
        // Given a server that never answers, so the transfer stays under way however loaded the machine
        let provider = provider()
        let hang: Endpoint<Data> = group.get("hang")
        let download = Task { try? await provider.download(hang, to: folder.appendingPathComponent("t.bin")) }
        // When its task is looked for (for 30 s at most)
        let transport = try #require(provider.transport as? URLSessionTransport)
        let session = try transport.transfers(endpoint: "").session
        var kinds: [Bool] = []
        var described = false
        let deadline = ContinuousClock.now + .seconds(30)
        while kinds.isEmpty, ContinuousClock.now < deadline {
            (kinds, described) = await withCheckedContinuation { answer in
                session.getAllTasks { tasks in
                    answer.resume(
                        returning: (
                            tasks.map { $0 is URLSessionDownloadTask },
                            tasks.contains { $0.taskDescription != nil }
                        ))
                }
            }
            if kinds.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        }
        download.cancel()
        _ = await download.value
        // Then it is a download task, with no note: only a background session's tasks carry one
        #expect(kinds == [true])
        #expect(!described)
    }

    @Test func aDownloadTaskReportsProgressUpToTheAnnouncedTotal() async throws {
        // Given
        let (endpoint, _) = ranged(bytes: 600_000)
        let reports = Recorder<TransferProgress>()
        // When
        _ = try await provider().download(endpoint, to: folder.appendingPathComponent("progress.bin")) {
            reports.append($0)
        }
        // Then
        let completed = reports.values.map(\.completedBytes)
        #expect(!completed.isEmpty)
        #expect(completed == completed.sorted())
        #expect(reports.values.last == TransferProgress(completedBytes: 600_000, expectedBytes: 600_000))
    }

    @Test func aDownloadTaskReplacesTheFileAtTheDestination() async throws {
        // Given an older file at the destination
        let destination = folder.appendingPathComponent("replaced.bin")
        try Data("old".utf8).write(to: destination)
        let (endpoint, _) = ranged(bytes: 70_000)
        // When
        _ = try await provider().download(endpoint, to: destination)
        // Then
        #expect(try Data(contentsOf: destination) == patterned(70_000, period: 251))
    }

    @Test func anEmptyBodyBecomesAnEmptyFile() async throws {
        // Given
        let destination = folder.appendingPathComponent("empty.bin")
        let noContent: Endpoint<Data> = group.get("status/204")
        // When
        let file = try await provider().download(noContent, to: destination)
        // Then
        #expect(file.byteCount == 0)
        #expect(try Data(contentsOf: destination).isEmpty)
    }

    @Test func aRefusedStatusThrowsWithItsBodyAndWritesNoFile() async throws {
        // Given
        let destination = folder.appendingPathComponent("missing.bin")
        let missing: Endpoint<Data> = group.get("status/404")
        let before = try temporaryFiles()
        // When
        let thrown = await error { try await provider().download(missing, to: destination) }
        // Then
        let failure = try #require(
            (thrown as? NetworkError)?.statusFailure,
            "expected unacceptableStatus, got \(String(describing: thrown))")
        #expect(failure.statusCode == 404)
        #expect(String(decoding: failure.body, as: UTF8.self).contains("NotFound"))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(try leftovers().isEmpty)
        // and the file URLSession wrote the refused body to is gone too
        let new = try temporaryFiles().subtracting(before).map {
            (try? Data(contentsOf: URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent($0)))
                ?? Data()
        }
        #expect(!new.contains { String(decoding: $0, as: UTF8.self).contains("no such movie") })
    }

    @Test func aStallIsTimedOutByURLSessionsOwnTimeoutAsTheEndpointsTimeout() async throws {
        // Given an answer whose body never comes, and a one-second timeout
        var stalled: Endpoint<Data> = group.get(
            "trickle", query: ["stallAfter": "0", "id": UUID().uuidString])
        stalled.timeout = .seconds(1)
        // When
        let thrown = await error {
            try await provider().download(stalled, to: folder.appendingPathComponent("stalled.bin"))
        }
        // Then it is the provider's timeout, and nothing resumes it (no resume data on Linux)
        guard case .timedOut(let timeout)? = thrown as? NetworkError else {
            Issue.record("expected timedOut, got \(String(describing: thrown))")
            return
        }
        #expect(timeout == .seconds(1))
        #expect(try leftovers().isEmpty)
    }

    @Test func aMissingFolderFailsBeforeAnythingIsAskedFor() async throws {
        // Given
        let (endpoint, id) = ranged(bytes: 70_000)
        let destination = folder.appendingPathComponent("nowhere").appendingPathComponent("file.bin")
        // When
        let thrown = await error { try await provider().download(endpoint, to: destination) }
        // Then
        guard case .file? = thrown as? NetworkError else {
            Issue.record("expected a file error, got \(String(describing: thrown))")
            return
        }
        #expect(try await rangesAsked(id, of: group).isEmpty)
    }

    @Test func theMiddlewaresSeeTheAnswerWithAnEmptyBody() async throws {
        // Given a middleware that records what the transport returned
        let seen = Recorder<String>()
        let (endpoint, _) = ranged(bytes: 70_000)
        // When
        _ = try await provider([Seeing(seen: seen)]).download(
            endpoint, to: folder.appendingPathComponent("seen.bin"))
        // Then
        #expect(seen.values == ["200 0"])
    }

    @Test func theMetricsCountTheBytesURLSessionWrote() async throws {
        // Given
        let (endpoint, _) = ranged(bytes: 70_000)
        let events = Recorder<NetworkEvent>()
        var configuration = provider().configuration
        configuration.onEvent = { events.append($0) }
        let provider = NetworkProvider(
            session: URLSession(configuration: .ephemeral), configuration: configuration)
        // When
        _ = try await provider.download(endpoint, to: folder.appendingPathComponent("metrics.bin"))
        // Then
        guard case .finished(let summary) = events.values.last else {
            Issue.record("expected finished, got \(events.values)")
            return
        }
        #expect(summary.metrics?.bytesReceived == 70_000)
        #expect(summary.metrics?.statusCode == 200)
    }
}

/// Records the status and the body size each answer reaches it with.
private struct Seeing: NetworkMiddleware {
    let seen: Recorder<String>

    func intercept(
        _ request: URLRequest, context: RequestContext, next: Next
    ) async throws -> (Data, HTTPURLResponse) {
        let (body, head) = try await next(request)
        seen.append("\(head.statusCode) \(body.count)")
        return (body, head)
    }
}
