import Dispatch
import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The bookkeeping of a background session: the note each task carries, what an orphaned task reports,
/// and the system's events handler.
@Suite("A background session's notes, orphans and events handler")
struct BackgroundTasksTests {
    /// A download task that is never resumed, carrying `note`.
    func task(note: BackgroundTasks.Note?) -> URLSessionTask {
        let task = URLSession(configuration: .ephemeral).downloadTask(
            with: URL(string: "http://127.0.0.1:9/never")!)
        task.taskDescription = note?.encoded
        return task
    }

    /// Runs `body` and waits until `queue` has run everything it was given meanwhile.
    func drained(_ queue: DispatchQueue, after body: () -> Void) async {
        body()
        await withCheckedContinuation { done in queue.async { done.resume() } }
    }

    @Test func aNoteSurvivesItsTaskDescription() {
        // Given
        let note = BackgroundTasks.Note(
            endpoint: "trailer", destination: URL(fileURLWithPath: "/tmp/a b.mp4"))
        // When
        let decoded = BackgroundTasks.Note(decoding: note.encoded)
        // Then
        #expect(decoded == note)
        #expect(decoded?.destinationURL?.path == "/tmp/a b.mp4")
    }

    @Test func aDestinationInTheHomeFolderIsKeptRelativeToIt() {
        // Given a destination in the home folder, which moves with an iOS app's container
        let home = URL(fileURLWithPath: NSHomeDirectory())
        let destination = home.appendingPathComponent("Documents/trailer.mp4")
        // When
        let note = BackgroundTasks.Note(endpoint: "trailer", destination: destination)
        // Then
        #expect(note.destination == "~/Documents/trailer.mp4")
        #expect(BackgroundTasks.Note(decoding: note.encoded)?.destinationURL?.path == destination.path)
    }

    @Test func aDescriptionNetworkLayerDidNotWriteIsNoNote() {
        #expect(BackgroundTasks.Note(decoding: "my own description") == nil)
        #expect(BackgroundTasks.Note(decoding: #"{"destination":"/tmp/x"}"#) == nil)
        #expect(BackgroundTasks.Note(decoding: nil) == nil)
    }

    @Test func anOrphansFailureIsReportedWithoutItsResumeData() throws {
        // Given a download that failed holding resume data (which archives its request's headers)
        let reports = Recorder<BackgroundTransfer>()
        let background = BackgroundTasks(report: { reports.append($0) })
        let failure = URLError(
            .networkConnectionLost, userInfo: [DownloadTaskFile.resumeDataKey: Data("secret".utf8)])
        // When
        background.completed(
            task(note: .init(endpoint: "trailer", destination: URL(fileURLWithPath: "/tmp/t"))),
            error: failure)
        // Then
        let reported = try #require(reports.values.first)
        guard case .transport(let error) = reported.error else {
            Issue.record("expected a transport failure, got \(String(describing: reported.error))")
            return
        }
        #expect(error.code == .networkConnectionLost)
        #expect(error.userInfo[DownloadTaskFile.resumeDataKey] == nil)
    }

    @Test func anOrphanWithoutANoteIsNotReported() {
        // Given
        let reports = Recorder<BackgroundTransfer>()
        let background = BackgroundTasks(report: { reports.append($0) })
        // When
        background.completed(task(note: nil), error: nil)
        // Then
        #expect(reports.values.isEmpty)
    }

    @Test func theSystemsHandlerIsCalledOnceTheEventsHaveBeenDelivered() async {
        // Given the handler the system gave the app
        let queue = DispatchQueue(label: "handler")
        let background = BackgroundTasks(report: { _ in }, handlerQueue: queue)
        let calls = Recorder<Int>()
        await drained(queue) { background.handleEvents { calls.append(1) } }
        #expect(calls.values.isEmpty)
        // When the session has delivered its events
        await drained(queue) { background.eventsFinished() }
        // Then it is called, once
        #expect(calls.values == [1])
        await drained(queue) { background.eventsFinished() }
        #expect(calls.values == [1])
    }

    @Test func aHandlerGivenAfterTheEventsIsCalledAtOnce() async {
        // Given a session that delivered its events before the handler came
        let queue = DispatchQueue(label: "handler")
        let background = BackgroundTasks(report: { _ in }, handlerQueue: queue)
        background.eventsFinished()
        let calls = Recorder<Int>()
        // When
        await drained(queue) { background.handleEvents { calls.append(1) } }
        // Then
        #expect(calls.values == [1])
    }

    @MainActor
    @Test func aProviderWithoutABackgroundSessionCallsTheHandlerAtOnce() async {
        // Given
        let provider = NetworkProvider(session: URLSession(configuration: .ephemeral))
        // When
        let called = await Watchdog.finishes { @MainActor in
            await withCheckedContinuation { done in
                provider.handleBackgroundEvents { done.resume() }
            }
        }
        // Then
        #expect(called)
    }

    @Test func aHeadURLSessionNeverReportedIsTakenFromTheTasksResponse() async throws {
        // Given a transfer whose task ended without reporting its head
        let collected = Recorder<BodyCollector.Outcome>()
        let collector = BodyCollector(limit: 100, accepts: 200...299, method: "POST") {
            collected.append($0)
        }
        let handler = TransferHandler(
            sink: collector, idleTimeout: nil, deadline: nil, deadlines: .shared, progress: nil)
        let response = try #require(
            HTTPURLResponse(url: exampleURL, statusCode: 201, httpVersion: "HTTP/1.1", headerFields: nil))
        // When
        handler.complete(error: nil, response: response)
        // Then
        #expect(try await handler.head().statusCode == 201)
    }
}
