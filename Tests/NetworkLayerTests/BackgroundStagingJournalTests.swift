import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A background download whose caller still waits stages its file beside the destination; the caller
/// places it after its middlewares. A process killed in between leaves the file journaled, and the next
/// launch places and reports it; the system's handler waits for the callers still placing files.
@Suite("Background downloads: a staged file is never lost")
struct BackgroundStagingJournalTests {
    let folder: TemporaryFolder
    let journal: BackgroundJournal

    init() throws {
        folder = try TemporaryFolder.create("staging")
        journal = BackgroundJournal(folder: folder.url.appendingPathComponent("journal"))
    }

    /// A file as URLSession hands it over, in a folder of its own.
    func downloaded(_ bytes: Data) throws -> URL {
        let inbox = folder.url.appendingPathComponent("inbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let file = inbox.appendingPathComponent("CFNetworkDownload.tmp")
        try bytes.write(to: file)
        return file
    }

    func head() throws -> HTTPURLResponse {
        let url = try #require(URL(string: "https://cdn.example/movie.bin"))
        return try #require(
            HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:]))
    }

    /// The relaunched session's reports, once it has replayed its journal.
    func relaunch() async -> [BackgroundTransfer] {
        let reports = Recorder<BackgroundTransfer>()
        let background = BackgroundTasks(identifier: "next", report: { reports.append($0) }, journal: journal)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        background.deliversEvents(on: queue)
        await withCheckedContinuation { done in queue.addOperation { done.resume() } }
        return reports.values
    }

    /// A child of this test that stages `file` for `destination` and is killed before placing it.
    func stageInAKilledProcess(_ file: URL, for destination: URL) throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var build = binary.deletingLastPathComponent()
        while !FileManager.default.fileExists(
            atPath: build.appendingPathComponent("NetworkLayerTestProcess").path),
            build.pathComponents.count > 1
        {
            build = build.deletingLastPathComponent()
        }
        let child = Process()
        child.executableURL = build.appendingPathComponent("NetworkLayerTestProcess")
        child.arguments = ["stage", journal.folder.path, file.path, destination.path]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        // The child says `staged` once the file is staged and journaled; it is killed at once.
        let said = output.fileHandleForReading.availableData
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(String(decoding: said, as: UTF8.self) == "staged\n")
        #expect(child.terminationReason == .uncaughtSignal)
    }

    @Test func aFileStagedByAProcessKilledBeforeItsCallerPlacedItIsPlacedAndReportedAtTheNextLaunch()
        async throws
    {
        // Given a process that staged a downloaded file for a caller, and was killed before it placed it
        let destination = folder.url.appendingPathComponent("movie.bin")
        let body = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0) })
        try stageInAKilledProcess(try downloaded(body), for: destination)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        // When the app is launched again and makes its session
        let reports = await relaunch()
        // Then the file is at its destination, reported once as placed, and nothing hidden is left
        #expect(try Data(contentsOf: destination) == body)
        #expect(reports.count == 1)
        #expect(reports.first?.kind == .download(destination: destination))
        #expect(reports.first?.error == nil)
        #expect(reports.first?.response?.statusCode == 200)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".") }
                .isEmpty)
        #expect(journal.pending().isEmpty)
    }

    @Test func aStagedFileThatIsGoneByTheNextLaunchIsReportedMissingAndNothingIsPlaced() async throws {
        // Given a staged file journaled by a launch that was killed, then removed by someone else
        let destination = folder.url.appendingPathComponent("gone.bin")
        try stageInAKilledProcess(try downloaded(Data(count: 10)), for: destination)
        let hidden = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter {
            $0.hasPrefix(".")
        }
        for name in hidden { try FileManager.default.removeItem(at: folder.url.appendingPathComponent(name)) }
        // When the app is launched again
        let reports = await relaunch()
        // Then the download is reported as a missing file, and nothing is at the destination
        guard case .file(let error)? = reports.first?.error else {
            Issue.record("expected a file error, got \(reports)")
            return
        }
        #expect((error as? POSIXError)?.code == .ENOENT)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test func aFilePlacedByAProcessKilledBeforeItsEntryWentIsReportedPlacedNotMissing() async throws {
        // Given a process that staged and placed a file, and was killed before removing its entry
        let destination = folder.url.appendingPathComponent("placed-then-killed.bin")
        try stageInAKilledProcess(try downloaded(Data("film".utf8)), for: destination)
        let hidden = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter {
            $0.hasPrefix(".")
        }
        let part = folder.url.appendingPathComponent(try #require(hidden.first))
        #expect(rename(part.path, destination.path) == 0)
        // When the app is launched again
        let reports = await relaunch()
        // Then the download is reported as placed
        #expect(reports.count == 1)
        #expect(reports.first?.error == nil)
        #expect(try Data(contentsOf: destination) == Data("film".utf8))
    }

    @Test func aCallerThatPlacesItsStagedFileLeavesNothingJournaled() throws {
        // Given a background download's file staged for its caller
        let background = BackgroundTasks(identifier: "place", report: { _ in }, journal: journal)
        let destination = folder.url.appendingPathComponent("placed.bin")
        let file = SessionWrittenFile(
            destination: destination, stagesAtOnce: true,
            ledger: .init(background: background, endpoint: "GET a"))
        try file.adopt(try downloaded(Data("film".utf8)), head: try head(), journalName: "task-7")
        #expect(journal.pending().count == 1)
        // When the caller places it
        _ = try file.move(to: destination)
        // Then the file is in place and the journal owes nothing
        #expect(try Data(contentsOf: destination) == Data("film".utf8))
        #expect(journal.pending().isEmpty)
    }

    @Test func aCallerThatRefusesItsStagedFileLeavesNothingJournaledOrHidden() throws {
        // Given a background download's file staged for its caller
        let background = BackgroundTasks(identifier: "refuse", report: { _ in }, journal: journal)
        let destination = folder.url.appendingPathComponent("refused.bin")
        let file = SessionWrittenFile(
            destination: destination, stagesAtOnce: true,
            ledger: .init(background: background, endpoint: "GET a"))
        try file.adopt(try downloaded(Data("film".utf8)), head: try head(), journalName: "task-8")
        // When its middleware refuses the answer
        file.discard()
        // Then nothing is journaled, placed or hidden beside the destination
        #expect(journal.pending().isEmpty)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".") }
                .isEmpty)
    }

    @Test func theSystemsHandlerWaitsForACallerStillPlacingItsFile() async throws {
        // Given a staged file whose caller has not placed it yet, when the session's events are done
        let called = Recorder<String>()
        let background = BackgroundTasks(
            identifier: "hold", report: { _ in }, handlerQueue: DispatchQueue(label: "hold"),
            journal: journal,
            after: { _, _ in })
        let destination = folder.url.appendingPathComponent("held.bin")
        let file = SessionWrittenFile(
            destination: destination, stagesAtOnce: true,
            ledger: .init(background: background, endpoint: "GET a"))
        try file.adopt(try downloaded(Data("film".utf8)), head: try head(), journalName: "task-9")
        background.handleEvents { called.append("handler") }
        background.eventsFinished()
        // When the caller places it (after anything the handler queue was given has run)
        await withCheckedContinuation { done in background.handlerQueue.async { done.resume() } }
        let before = called.values
        _ = try file.move(to: destination)
        // Then the handler was called only after
        #expect(before.isEmpty)
        #expect(await eventually { called.values == ["handler"] })
    }

    @Test func aHandlerComingAfterItsEventsWaitsForACallerStillPlacingItsFile() async throws {
        // Given a staged file whose caller has not placed it, and a batch that finished before its
        // handler came (the usual order when the system wakes a suspended app)
        let called = Recorder<String>()
        let background = BackgroundTasks(
            identifier: "late", report: { _ in }, handlerQueue: DispatchQueue(label: "late"),
            journal: journal,
            after: { _, _ in })
        let destination = folder.url.appendingPathComponent("late.bin")
        let file = SessionWrittenFile(
            destination: destination, stagesAtOnce: true,
            ledger: .init(background: background, endpoint: "GET a"))
        try file.adopt(try downloaded(Data("film".utf8)), head: try head(), journalName: "task-11")
        background.eventsFinished()
        // When the handler comes, and then the caller places its file
        background.handleEvents { called.append("handler") }
        await withCheckedContinuation { done in background.handlerQueue.async { done.resume() } }
        let before = called.values
        _ = try file.move(to: destination)
        // Then the handler was held until the file was placed
        #expect(before.isEmpty)
        #expect(await eventually { called.values == ["handler"] })
    }

    @Test func aCallerThatGaveUpBeforeItsFileWasStagedLeavesNothingWaiting() async throws {
        // Given a download its caller gave up on just as URLSession handed its file over
        let called = Recorder<String>()
        let background = BackgroundTasks(
            identifier: "gave-up", report: { _ in }, handlerQueue: DispatchQueue(label: "gave-up"),
            journal: journal, after: { _, _ in })
        let file = SessionWrittenFile(
            destination: folder.url.appendingPathComponent("gone.bin"), stagesAtOnce: true,
            ledger: .init(background: background, endpoint: "GET a"))
        file.discard()
        try file.adopt(try downloaded(Data("film".utf8)), head: try head(), journalName: "task-12")
        // When the session's events are done
        background.handleEvents { called.append("handler") }
        background.eventsFinished()
        // Then nothing is journaled or held: the handler is called at once
        #expect(journal.pending().isEmpty)
        #expect(await eventually { called.values == ["handler"] })
    }

    @Test func eachHoldsLimitReleasesOnlyItsOwnHandlers() async throws {
        // Given a staged file no caller places, and two batches whose handlers are held for it
        let called = Recorder<String>()
        let fires = Locked<[@Sendable () -> Void]>([])
        let background = BackgroundTasks(
            identifier: "two", report: { _ in }, handlerQueue: DispatchQueue(label: "two"), journal: journal,
            after: { _, work in fires.withLock { $0.append(work) } })
        let file = SessionWrittenFile(
            destination: folder.url.appendingPathComponent("two.bin"), stagesAtOnce: true,
            ledger: .init(background: background, endpoint: "GET a"))
        try file.adopt(try downloaded(Data("film".utf8)), head: try head(), journalName: "task-13")
        background.handleEvents { called.append("first") }
        background.eventsFinished()
        background.handleEvents { called.append("second") }
        background.eventsFinished()
        // When the first batch's limit passes
        fires.withLock { $0 }.first?()
        // Then only the first batch's handler is called
        #expect(await eventually { called.values == ["first"] })
        await withCheckedContinuation { done in background.handlerQueue.async { done.resume() } }
        #expect(called.values == ["first"])
    }

    @Test func theSystemsHandlerIsCalledAfterTheHoldLimitIfACallerNeverPlacesItsFile() async throws {
        // Given a staged file whose caller never comes, and a clock the test moves
        let called = Recorder<String>()
        let scheduled = Recorder<Duration>()
        let fire = Locked<(@Sendable () -> Void)?>(nil)
        let background = BackgroundTasks(
            identifier: "limit", report: { _ in }, handlerQueue: DispatchQueue(label: "limit"),
            journal: journal,
            after: { delay, work in
                scheduled.append(delay)
                fire.withLock { $0 = work }
            })
        let file = SessionWrittenFile(
            destination: folder.url.appendingPathComponent("never.bin"), stagesAtOnce: true,
            ledger: .init(background: background, endpoint: "GET a"))
        try file.adopt(try downloaded(Data("film".utf8)), head: try head(), journalName: "task-10")
        background.handleEvents { called.append("handler") }
        background.eventsFinished()
        // When the hold limit passes
        await withCheckedContinuation { done in background.handlerQueue.async { done.resume() } }
        let held = called.values
        fire.withLock { $0 }?()
        // Then the handler is called, after the limit, once
        #expect(held.isEmpty)
        #expect(scheduled.values == [BackgroundTasks.handlerHoldLimit])
        #expect(await eventually { called.values == ["handler"] })
    }
}
