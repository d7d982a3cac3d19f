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
    /// A whole-body attempt of at most 100 bytes, accepting 2xx.
    private let rules = AttemptRules(endpoint: "upload", accepts: 200...299, limit: 100)

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
        let background = BackgroundTasks(identifier: "downloads", report: { reports.append($0) })
        let failure = URLError(
            .networkConnectionLost, userInfo: [SessionWrittenFile.resumeDataKey: Data("secret".utf8)])
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
        #expect(error.userInfo[SessionWrittenFile.resumeDataKey] == nil)
    }

    @Test func anOrphanWithoutANoteIsNotReported() {
        // Given
        let reports = Recorder<BackgroundTransfer>()
        let background = BackgroundTasks(identifier: "downloads", report: { reports.append($0) })
        // When
        background.completed(task(note: nil), error: nil)
        // Then
        #expect(reports.values.isEmpty)
    }

    @Test func theSystemsHandlerIsCalledOnceTheEventsHaveBeenDelivered() async {
        // Given the handler the system gave the app
        let queue = DispatchQueue(label: "handler")
        let background = BackgroundTasks(identifier: "downloads", report: { _ in }, handlerQueue: queue)
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
        let background = BackgroundTasks(identifier: "downloads", report: { _ in }, handlerQueue: queue)
        background.eventsFinished()
        let calls = Recorder<Int>()
        // When
        await drained(queue) { background.handleEvents { calls.append(1) } }
        // Then
        #expect(calls.values == [1])
    }

    @Test func aHandlerGivenLongAfterTheEventsWaitsForTheEventsOfItsOwnWake() async {
        // Given a session that delivered its events with no handler, and a wall clock the test moves
        let queue = DispatchQueue(label: "handler")
        let clock = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        let background = BackgroundTasks(
            identifier: "downloads", report: { _ in }, handlerQueue: queue, now: { clock.withLock { $0 } })
        background.eventsFinished()
        // When a handler of a later wake comes, after the device slept an hour
        clock.withLock { $0 += 3_600 }
        let calls = Recorder<Int>()
        await drained(queue) { background.handleEvents { calls.append(1) } }
        // Then it waits for that wake's events instead of being called before them
        #expect(calls.values.isEmpty)
        await drained(queue) { background.eventsFinished() }
        #expect(calls.values == [1])
    }

    @Test func everyHandlerGivenForTheEventsIsCalled() async {
        // Given two handlers for one batch of events
        let queue = DispatchQueue(label: "handler")
        let background = BackgroundTasks(identifier: "downloads", report: { _ in }, handlerQueue: queue)
        let calls = Recorder<Int>()
        background.handleEvents { calls.append(1) }
        background.handleEvents { calls.append(2) }
        // When
        await drained(queue) { background.eventsFinished() }
        // Then
        #expect(calls.values == [1, 2])
    }

    @MainActor
    @Test func aHandlerForAnotherSessionIsNotKept() {
        // Given a provider on a background session, and one on an ordinary session
        let background = NetworkProvider(
            sessionConfiguration: .ephemeral, delegate: nil, middlewares: [], configuration: .init(),
            background: BackgroundTasks(identifier: "downloads-\(UUID().uuidString)", report: { _ in }))
        let ordinary = NetworkProvider(session: URLSession(configuration: .ephemeral))
        // When each is given the handler for another session
        let kept = [
            background.handleBackgroundEvents(forSession: "uploads") {},
            ordinary.handleBackgroundEvents(forSession: "uploads") {},
        ]
        // Then neither keeps it
        #expect(kept == [false, false])
    }

    @MainActor
    @Test func aHandlerForTheProvidersSessionIsCalledOnTheMainQueueOnceItsEventsAreDelivered() async throws {
        // Given
        let identifier = "downloads-\(UUID().uuidString)"
        let provider = NetworkProvider(
            sessionConfiguration: .ephemeral, delegate: nil, middlewares: [], configuration: .init(),
            background: BackgroundTasks(identifier: identifier, report: { _ in }))
        let background = try #require(provider.transport.background)
        // When
        let called = await Watchdog.finishes { @MainActor in
            await withCheckedContinuation { done in
                let kept = provider.handleBackgroundEvents(forSession: identifier) {
                    MainActor.assertIsolated()
                    done.resume()
                }
                #expect(kept)
                background.eventsFinished()
            }
        }
        // Then
        #expect(called)
    }

    @Test func aWholeAnswerIsAcceptedAndAPartOnlyAsTheRestOfItsVersion() throws {
        func answer(_ status: Int, _ headers: [String: String]) throws -> HTTPURLResponse {
            try #require(
                HTTPURLResponse(url: exampleURL, statusCode: status, httpVersion: nil, headerFields: headers))
        }
        #expect(BackgroundTasks.isWhole(try answer(200, [:]), resuming: nil))
        #expect(BackgroundTasks.isWhole(try answer(206, ["Content-Range": "bytes 0-99/100"]), resuming: nil))
        #expect(
            !BackgroundTasks.isWhole(try answer(206, ["Content-Range": "bytes 0-99/1000"]), resuming: nil))
        #expect(!BackgroundTasks.isWhole(try answer(206, [:]), resuming: nil))
        #expect(
            BackgroundTasks.isWhole(
                try answer(206, ["Content-Range": "bytes 100-999/1000", "ETag": "\"v1\""]), resuming: "\"v1\""
            ))
        #expect(
            !BackgroundTasks.isWhole(
                try answer(206, ["Content-Range": "bytes 100-999/1000", "ETag": "\"v2\""]), resuming: "\"v1\""
            ))
    }

    @Test func privateIsReadAsTheFolderItNamesOnAppleOnly() {
        // Given a path that does not exist, so that nothing resolves it
        let path = "/private/var/nothing-\(UUID().uuidString)/t.mp4"
        // When
        let canonical = BackgroundTasks.Note.canonical(path)
        // Then
        #if canImport(Darwin)
            #expect(canonical == String(path.dropFirst("/private".count)))
        #else
            #expect(canonical == path)
        #endif
    }

    @Test func aDestinationSpelledThroughPrivateIsStillRelativeToTheHomeFolder() {
        // Given the home folder as Darwin's temporary folder spells it (/private/var is /var)
        let destination = URL(fileURLWithPath: "/private" + NSHomeDirectory()).appendingPathComponent("t.mp4")
        // When
        let note = BackgroundTasks.Note(endpoint: "trailer", destination: destination)
        // Then
        #expect(note.destination == "~/t.mp4")
    }

    @Test func onlyNetworkLayersOwnTemporaryBodyIsNamedForRemoval() {
        // Given a file of the caller's and a form NetworkLayer wrote
        let callers = URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("photo.jpg")
        let form = FileManager.default.temporaryDirectory.appendingPathComponent(
            BackgroundTasks.Note.temporaryBodyPrefix + "1")
        var forged = BackgroundTasks.Note.upload(endpoint: "x", body: .file(callers))
        forged.temporaryBody = callers.path
        // Then
        #expect(BackgroundTasks.Note.upload(endpoint: "x", body: .file(callers)).temporaryBody == nil)
        #expect(
            BackgroundTasks.Note.upload(endpoint: "x", body: .file(form)).temporaryBodyURL?.path == form.path)
        #expect(forged.temporaryBodyURL == nil)
    }

    @Test func bodyBytesBeforeAnyHeadAreReceivedAfterTheTasksResponse() async throws {
        // Given a transfer whose task reports its body but not its head (a background upload task)
        let collected = Recorder<ResponseSink.Answer>()
        let collector = ResponseSink(.whole, rules: rules, method: "POST")
        collector.answers { collected.append($0) }
        let handler = TransferHandler(
            sink: collector, idleTimeout: nil, deadline: nil, deadlines: .shared, progress: nil)
        let response = try #require(
            HTTPURLResponse(url: exampleURL, statusCode: 201, httpVersion: "HTTP/1.1", headerFields: nil))
        // When
        handler.receive(Data("{\"id\":1}".utf8), response: response)
        handler.complete(error: nil, response: response)
        // Then
        #expect(try await handler.head().statusCode == 201)
        let outcome = try #require(collected.values.first)
        #expect(try outcome.get().0 == Data("{\"id\":1}".utf8))
    }

    @Test func aHeadURLSessionNeverReportedIsTakenFromTheTasksResponse() async throws {
        // Given a transfer whose task ended without reporting its head
        let collected = Recorder<ResponseSink.Answer>()
        let collector = ResponseSink(.whole, rules: rules, method: "POST")
        collector.answers { collected.append($0) }
        let handler = TransferHandler(
            sink: collector, idleTimeout: nil, deadline: nil, deadlines: .shared, progress: nil)
        let response = try #require(
            HTTPURLResponse(url: exampleURL, statusCode: 201, httpVersion: "HTTP/1.1", headerFields: nil))
        // When
        handler.complete(error: nil, response: response)
        // Then
        #expect(try await handler.head().statusCode == 201)
        let outcome = try #require(collected.values.first)
        #expect(try outcome.get().0.isEmpty)
    }

    @Test func aHandlerThatComesAfterTheEventsWaitsForEventsStillQueued() async {
        // Given events delivered before any handler, and a later batch still queued
        let handlerQueue = DispatchQueue(label: "handler")
        let delegateQueue = OperationQueue()
        delegateQueue.maxConcurrentOperationCount = 1
        let background = BackgroundTasks(
            identifier: "downloads", report: { _ in }, handlerQueue: handlerQueue)
        background.deliversEvents(on: delegateQueue)
        background.eventsFinished()
        delegateQueue.isSuspended = true
        let calls = Recorder<String>()
        delegateQueue.addOperation { calls.append("event") }
        // When the handler comes
        await drained(handlerQueue) { background.handleEvents { calls.append("handler") } }
        // Then it waits for the queued events, and is called after them
        #expect(calls.values.isEmpty)
        delegateQueue.isSuspended = false
        await withCheckedContinuation { done in delegateQueue.addOperation { done.resume() } }
        await drained(handlerQueue) {}
        #expect(calls.values == ["event", "handler"])
    }

    @Test func aTaskEndingBetweenTheEventsAndTheHandlerDoesNotHoldTheHandlerBack() async throws {
        // Given a provider on a background session whose events were delivered before any handler, and a
        // download of its that then ends
        let server = try await TestServer.shared.value
        let queue = DispatchQueue(label: "handler")
        let background = BackgroundTasks(identifier: UUID().uuidString, report: { _ in }, handlerQueue: queue)
        let provider = NetworkProvider(
            sessionConfiguration: .ephemeral, delegate: nil, middlewares: [], configuration: .init(),
            background: background)
        background.eventsFinished()
        let folder = try TemporaryFolder.create("events")
        let ranged = EndpointGroup(baseURL: server.baseURL).get(
            "ranged", query: ["bytes": "10"], as: Data.self)
        _ = try await provider.download(ranged, to: folder.url.appendingPathComponent("a.bin"))
        let calls = Recorder<Int>()
        // When the handler comes
        await drained(queue) { background.handleEvents { calls.append(1) } }
        // Then it is called (after the events still queued) without waiting for a batch that may never
        // come
        #expect(await eventually { calls.values == [1] })
    }

    /// A provider on a session it is told is a background one, its tasks, and the session's identifier.
    func backgroundProvider() -> (NetworkProvider, BackgroundTasks, String) {
        let identifier = UUID().uuidString
        let background = BackgroundTasks(
            identifier: identifier, report: { _ in }, handlerQueue: DispatchQueue(label: "handler"))
        let provider = NetworkProvider(
            sessionConfiguration: .ephemeral, delegate: nil, middlewares: [], configuration: .init(),
            background: background)
        return (provider, background, identifier)
    }

    @Test func aSceneWaitingForTheEventsResumesOnceTheyAreDelivered() async throws {
        // Given a provider on a background session, and a scene's background task waiting for its events
        let (provider, background, identifier) = backgroundProvider()
        let done = Recorder<Bool>()
        let scene = Task {
            done.append(await provider.deliverBackgroundEvents(forSession: identifier))
        }
        #expect(await eventually { background.waitingHandlers == 1 })
        #expect(done.values.isEmpty)
        // When the session has delivered them
        background.eventsFinished()
        await scene.value
        // Then the task returned, saying the session was the provider's
        #expect(done.values == [true])
    }

    @Test func aSceneWhoseTimeRunsOutStopsWaiting() async throws {
        // Given a scene's background task waiting for events that do not come
        let (provider, background, identifier) = backgroundProvider()
        let scene = Task { await provider.deliverBackgroundEvents(forSession: identifier) }
        #expect(await eventually { background.waitingHandlers == 1 })
        // When the system cancels it, its background time spent
        scene.cancel()
        // Then it returns
        #expect(await scene.value)
    }

    @Test func aSceneAskingForAnotherSessionIsAnsweredAtOnce() async {
        // Given
        let provider = NetworkProvider(
            sessionConfiguration: .ephemeral, delegate: nil, middlewares: [], configuration: .init(),
            background: BackgroundTasks(identifier: "downloads", report: { _ in }))
        // When, Then
        #expect(await provider.deliverBackgroundEvents(forSession: "uploads") == false)
    }
}
