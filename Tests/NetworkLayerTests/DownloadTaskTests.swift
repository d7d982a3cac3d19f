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
struct DownloadTaskTests {
    let server: TestServer
    let group: EndpointGroup
    let folder: URL

    init() async throws {
        server = try await TestServer.shared.value
        group = EndpointGroup(baseURL: server.baseURL)
        folder = try newTemporaryFolder("download-tasks")
    }

    /// A provider whose downloads are download tasks, as on Apple platforms.
    func provider(_ middlewares: [any NetworkMiddleware] = []) -> NetworkProvider {
        var configuration = NetworkProvider.Configuration()
        configuration.downloadWindow = nil
        configuration.downloadsWithTasks = true
        return NetworkProvider(
            session: URLSession(configuration: .ephemeral), middlewares: middlewares,
            configuration: configuration)
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
        // Given a body that trickles in for about three seconds
        let provider = provider()
        let trickle: Endpoint<Data> = group.get("trickle", query: ["chunks": "30", "intervalMs": "100"])
        let finished = Recorder<Int64>()
        let download = Task {
            // Recorded however it ends (-1: failed), so the look below always stops.
            let file = try? await provider.download(trickle, to: folder.appendingPathComponent("t.bin"))
            finished.append(file?.byteCount ?? -1)
        }
        // When its task is under way (looked for until the download ends)
        let session = try provider.transfers(for: URLSession(configuration: .ephemeral), endpoint: "").session
        var kinds: [Bool] = []
        while kinds.isEmpty, finished.values.isEmpty {
            kinds = await withCheckedContinuation { answer in
                session.getAllTasks { tasks in
                    answer.resume(returning: tasks.map { $0 is URLSessionDownloadTask })
                }
            }
            if kinds.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        }
        // Then it is a download task
        #expect(kinds == [true])
        await download.value
        #expect(finished.values == [30 * 1024])
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
        // When
        let thrown = await error { try await provider().download(missing, to: destination) }
        // Then
        guard case .unacceptableStatus(let failure) = thrown as? NetworkError else {
            Issue.record("expected unacceptableStatus, got \(String(describing: thrown))")
            return
        }
        #expect(failure.statusCode == 404)
        #expect(String(decoding: failure.body, as: UTF8.self).contains("NotFound"))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(try leftovers().isEmpty)
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

    @Test func theResumeDataOfAFailedTaskIsKeptForTheNextAttemptOnce() {
        // Given a failure carrying resume data as URLSession reports it on Apple platforms
        let file = DownloadTaskFile(destination: folder.appendingPathComponent("resumed.bin"))
        let failure = URLError(
            .networkConnectionLost, userInfo: [DownloadTaskFile.resumeDataKey: Data([1, 2, 3])])
        // When
        file.keepResumeData(of: failure)
        // Then
        #expect(file.canResume)
        #expect(file.takeResumeData() == Data([1, 2, 3]))
        #expect(file.takeResumeData() == nil)
        #expect(!file.canResume)
    }

    @Test func aFailureWithoutResumeDataLeavesNothingToResumeFrom() {
        // Given
        let file = DownloadTaskFile(destination: folder.appendingPathComponent("dropped.bin"))
        // When
        file.keepResumeData(of: URLError(.networkConnectionLost))
        // Then
        #expect(!file.canResume)
    }

    func answer(_ status: Int, etag: String) throws -> HTTPURLResponse {
        try #require(
            HTTPURLResponse(
                url: exampleURL, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["ETag": etag]))
    }

    @Test func aResumedAnswerOfAnotherVersionFailsTheAttemptAndTheNextStartsOver() throws {
        // Given a first answer of version "a" whose task dropped, leaving resume data
        let file = DownloadTaskFile(destination: folder.appendingPathComponent("mixed.bin"))
        try file.check(answer(200, etag: "\"a\""), resumed: false)
        file.keepResumeData(
            of: URLError(.networkConnectionLost, userInfo: [DownloadTaskFile.resumeDataKey: Data([1])]))
        // When the resume is answered with version "b"'s bytes (a server that ignores If-Range)
        #expect(throws: NetworkError.self) { try file.check(answer(206, etag: "\"b\""), resumed: true) }
        // Then no resume data is left, and the next attempt starts over
        #expect(!file.canResume)
        #expect(file.takeRestart())
        #expect(!file.takeRestart())
    }

    @Test func aResumedAnswerOfTheSameVersionContinuesTheFile() throws {
        // Given
        let file = DownloadTaskFile(destination: folder.appendingPathComponent("same.bin"))
        try file.check(answer(200, etag: "\"a\""), resumed: false)
        // When / Then
        try file.check(answer(206, etag: "\"a\""), resumed: true)
        #expect(!file.takeRestart())
    }

    @Test func aResumedAnswerWithOnlyAWeakValidatorIsRefused() throws {
        // Given
        let file = DownloadTaskFile(destination: folder.appendingPathComponent("weak.bin"))
        try file.check(answer(200, etag: "W/\"a\""), resumed: false)
        // When / Then
        #expect(throws: NetworkError.self) { try file.check(answer(206, etag: "W/\"a\""), resumed: true) }
        #expect(file.takeRestart())
    }

    @Test func aFileHandedOverAfterTheDownloadWasGivenUpIsRemoved() throws {
        // Given a download given up (cancelled) as its task finished
        let file = DownloadTaskFile(destination: folder.appendingPathComponent("late.bin"))
        file.discard()
        let location = folder.appendingPathComponent("urlsession-file.tmp")
        try Data("late".utf8).write(to: location)
        // When the task hands its file over
        try file.adopt(location)
        // Then neither it nor a hidden file remains
        #expect(!FileManager.default.fileExists(atPath: location.path))
        #expect(try leftovers().isEmpty)
    }

    @Test func aFileHandedOverIsMovedBesideTheDestinationThenIntoPlace() throws {
        // Given
        let destination = folder.appendingPathComponent("moved.bin")
        let file = DownloadTaskFile(destination: destination)
        let location = folder.appendingPathComponent("urlsession-file.tmp")
        try Data("body".utf8).write(to: location)
        // When
        try file.adopt(location)
        let hidden = try leftovers()
        let byteCount = try file.move(to: destination)
        // Then
        #expect(hidden.count == 1)
        #expect(byteCount == 4)
        #expect(try Data(contentsOf: destination) == Data("body".utf8))
        #expect(try leftovers().isEmpty)
    }

    @Test func aStallIsWatchedByURLSessionsOwnTimeoutOfTheEndpointsLength() {
        #expect(NetworkProvider.idleTimeoutInterval(.seconds(30)) == 30)
        #expect(NetworkProvider.idleTimeoutInterval(.milliseconds(1500)) == 1.5)
        #expect(NetworkProvider.idleTimeoutInterval(.zero) == 0.001)
        #expect(NetworkProvider.idleTimeoutInterval(.seconds(Int64.max)) == 7 * 86_400)
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
