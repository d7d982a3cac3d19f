import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transfer that ended with no caller is written to the session's journal before it is reported and
/// removed after, so a process killed in between reports it at the next launch, once; the journal keeps
/// nothing secret and reads hostile files safely.
@Suite("Background transfers owed across a relaunch", .timeLimit(.minutes(1)))
struct BackgroundJournalTests {
    let folder: TemporaryFolder
    let journal: BackgroundJournal

    init() throws {
        folder = try TemporaryFolder.create("journal")
        journal = BackgroundJournal(folder: folder.url.appendingPathComponent("journal"))
    }

    func provider(
        identifier: String = UUID().uuidString, reports: AsyncStream<BackgroundTransfer>.Continuation
    ) -> NetworkProvider {
        NetworkProvider(
            sessionConfiguration: .ephemeral, delegate: nil, middlewares: [], configuration: .init(),
            background: BackgroundTasks(
                identifier: identifier, report: { reports.yield($0) }, journal: journal))
    }

    /// A download of `bytes` bytes the launch before started on `provider`'s session.
    func orphanedDownload(on provider: NetworkProvider, bytes: Int, to destination: URL) async throws {
        let server = try await TestServer.shared.value
        let session = try #require(provider.session as? URLSession)
        let url = server.baseURL.appendingPathComponent("ranged").appending(
            queryItems: [URLQueryItem(name: "bytes", value: "\(bytes)")])
        let task = session.downloadTask(with: url)
        task.taskDescription = BackgroundTasks.Note(endpoint: "GET ranged", destination: destination).encoded
        task.resume()
    }

    @Test func aTransferReportedInThisProcessLeavesNothingInTheJournal() async throws {
        // Given a download with no caller
        let (reports, reporter) = AsyncStream.makeStream(of: BackgroundTransfer.self)
        let provider = provider(reports: reporter)
        let destination = folder.url.appendingPathComponent("a.bin")
        try await orphanedDownload(on: provider, bytes: 1_000, to: destination)
        // When it is reported
        var iterator = reports.makeAsyncIterator()
        let report = try #require(await iterator.next())
        // Then its file is in place, and nothing is owed
        #expect(report.error == nil)
        #expect(try Data(contentsOf: destination).count == 1_000)
        #expect(await eventually { journal.pending().isEmpty })
    }

    @Test func aReportOwedByAKilledProcessIsMadeAtTheNextLaunchOnce() async throws {
        // Given the journal of a process killed after the system delivered a download's file, before its
        // report was made
        let destination = folder.url.appendingPathComponent("b.bin")
        let head = try #require(
            HTTPURLResponse(
                url: URL(string: "https://cdn.example/b.bin")!, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Type": "application/octet-stream"]))
        journal.write(
            BackgroundTransfer(
                endpoint: "GET b.bin", kind: .download(destination: destination), response: head,
                body: Data(),
                error: nil),
            name: "owed")
        // When the app is launched again and makes its provider
        let (reports, reporter) = AsyncStream.makeStream(of: BackgroundTransfer.self)
        _ = provider(reports: reporter)
        var iterator = reports.makeAsyncIterator()
        let report = try #require(await iterator.next())
        // Then it is reported with what was owed, and no longer owed
        #expect(report.endpoint == "GET b.bin")
        #expect(report.kind == .download(destination: destination))
        #expect(report.response?.statusCode == 200)
        #expect(report.error == nil)
        #expect(journal.pending().isEmpty)
    }

    @Test func aTaskWhoseEndTheSystemDeliversAfterTheReplayIsNotReportedTwice() async throws {
        // Given the journal of a process killed after its download's file was put in place, and the task
        // whose end the system has yet to deliver
        let destination = folder.url.appendingPathComponent("c.bin")
        let task = URLSession.shared.downloadTask(with: URL(fileURLWithPath: "/c.bin"))
        task.taskDescription = BackgroundTasks.Note(endpoint: "GET c.bin", destination: destination).encoded
        journal.write(
            BackgroundTransfer(
                endpoint: "GET c.bin", kind: .download(destination: destination), response: nil, body: Data(),
                error: nil),
            name: BackgroundJournal.name(of: task))
        let reports = Recorder<BackgroundTransfer>()
        let background = BackgroundTasks(identifier: "owed", report: { reports.append($0) }, journal: journal)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        // When the relaunched session replays the journal, and then the system delivers the task's end
        background.deliversEvents(on: queue)
        await withCheckedContinuation { done in queue.addOperation { done.resume() } }
        background.completed(task, error: nil)
        // Then it was reported once, with the journal's outcome, and nothing is left
        #expect(reports.values.count == 1)
        #expect(reports.values.first?.error == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: journal.folder.path).isEmpty)
        task.cancel()
    }

    @Test func aFailureIsOwedByItsKindAndCode() throws {
        // Given transfers that failed in three ways
        let failures: [NetworkError] = [
            .transport(URLError(.networkConnectionLost)), .file(POSIXError(.ENOSPC)),
            .unacceptableStatus(.init(statusCode: 503, headers: [:], body: Data("busy".utf8), url: nil)),
        ]
        for (index, failure) in failures.enumerated() {
            journal.write(
                BackgroundTransfer(
                    endpoint: "POST upload", kind: .upload, response: nil, body: Data(), error: failure),
                name: "\(index)")
        }
        // When
        let owed = journal.pending().map(\.transfer.error)
        // Then
        guard owed.count == 3, case .transport(let lost)? = owed[0], case .file(let disk)? = owed[1],
            case .unacceptableStatus? = owed[2]
        else {
            Issue.record("expected the three failures, got \(owed)")
            return
        }
        #expect(lost.code == .networkConnectionLost)
        #expect((disk as? POSIXError)?.code == .ENOSPC)
    }

    @Test func anEntryKeepsNoSecret() throws {
        // Given a report whose answer set a cookie and echoed a key nobody declared in this process yet (a
        // relaunch in the background), in its URL and a header
        let key = "JOURNAL-\(UUID().uuidString.prefix(8))"
        let head = try #require(
            HTTPURLResponse(
                url: URL(string: "https://api.example/upload?key=\(key)")!, statusCode: 200,
                httpVersion: "HTTP/1.1",
                headerFields: ["Set-Cookie": "session=abc123", "X-Echo": key, "ETag": "\"\(key)\""]))
        // When
        journal.write(
            BackgroundTransfer(
                endpoint: "POST upload", kind: .upload, response: head, body: Data(key.utf8), error: nil),
            name: "secret")
        // Then
        let text = try String(
            contentsOf: journal.folder.appendingPathComponent("secret.json"), encoding: .utf8)
        #expect(!text.contains(key))
        #expect(!text.contains("abc123"))
    }

    @Test func anEntryKeepsNoPathATokenNobodyDeclaredCouldBeIn() throws {
        // Given a report whose URL carries a bot token in its path, never declared in this process
        let token = "BOT\(UUID().uuidString.prefix(12))"
        let head = try #require(
            HTTPURLResponse(
                url: URL(string: "https://api.example:8443/bot\(token)/sendDocument")!, statusCode: 200,
                httpVersion: "HTTP/1.1", headerFields: [:]))
        // When it is written
        journal.write(
            BackgroundTransfer(
                endpoint: "POST send", kind: .upload, response: head, body: Data(), error: nil),
            name: "path")
        // Then neither the token nor the path is in the file; the scheme, host and port are
        let text = try String(contentsOf: journal.folder.appendingPathComponent("path.json"), encoding: .utf8)
        #expect(!text.contains(token))
        #expect(!text.contains("sendDocument"))
        #expect(journal.pending().first?.transfer.response?.url?.absoluteString == "https://api.example:8443")
    }

    @Test func entriesThatAreNotRegularSmallReadableFilesAreRemovedUnread() throws {
        // Given garbage, an oversized entry and a FIFO in the journal
        try FileManager.default.createDirectory(at: journal.folder, withIntermediateDirectories: true)
        try Data("not json".utf8).write(to: journal.folder.appendingPathComponent("garbage.json"))
        try Data(count: BackgroundJournal.entrySizeLimit + 1).write(
            to: journal.folder.appendingPathComponent("huge.json"))
        #expect(mkfifo(journal.folder.appendingPathComponent("fifo.json").path, 0o600) == 0)
        // When (a FIFO read would block forever)
        let finished = Watchdog.finishes { _ = journal.pending() }
        // Then
        #expect(finished)
        #expect(journal.pending().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: journal.folder.path).isEmpty)
    }

    @Test func aSessionsJournalFolderNameIsSafeWhateverItsIdentifier() {
        // Given hostile identifiers
        let names = ["../../etc", String(repeating: "x", count: 500), "a/b", "세션"].map(
            BackgroundJournal.folderName)
        // When, Then every name is one path component of safe characters, distinct
        for name in names {
            #expect(!name.contains("/"))
            #expect(name != "..")
            #expect(name.count <= 64 + 1 + 16)
        }
        #expect(Set(names).count == names.count)
    }
}
