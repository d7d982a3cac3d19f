import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A journal under stronger data protection: a relaunch while the device is locked cannot read its
/// entries, and must neither drop them nor report what it cannot see as missing.
@Suite("Background journal: entries that cannot be read yet")
struct BackgroundJournalProtectionTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder.create("journal-protection")
    }

    var journalFolder: URL { folder.url.appendingPathComponent("journal") }

    /// The journal as a locked device reads it: every entry refused for lack of permission.
    var locked: BackgroundJournal {
        BackgroundJournal(folder: journalFolder) { url in
            throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    func owedDownload(to destination: URL, name: String) {
        BackgroundJournal(folder: journalFolder).write(
            BackgroundTransfer(
                endpoint: "GET film.bin", kind: .download(destination: destination), response: nil,
                body: Data(),
                error: nil),
            name: name)
    }

    func launch(with journal: BackgroundJournal) async -> (BackgroundTasks, [BackgroundTransfer]) {
        let reports = Recorder<BackgroundTransfer>()
        let background = BackgroundTasks(
            identifier: "locked", report: { reports.append($0) }, journal: journal)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        background.deliversEvents(on: queue)
        await withCheckedContinuation { done in queue.addOperation { done.resume() } }
        return (background, reports.values)
    }

    @Test func anEntryThatCannotBeReadWhileLockedIsKeptAndReportedByALaterLaunch() async {
        // Given a report owed by a killed process
        let destination = folder.url.appendingPathComponent("film.bin")
        owedDownload(to: destination, name: "owed")
        // When the app is relaunched while the device is locked, and later once it is unlocked
        let (_, whileLocked) = await launch(with: locked)
        let (_, unlocked) = await launch(with: BackgroundJournal(folder: journalFolder))
        // Then nothing was reported or dropped while locked, and the report is made once unlocked
        #expect(whileLocked.isEmpty)
        #expect(unlocked.map(\.kind) == [.download(destination: destination)])
        #expect(unlocked.first?.error == nil)
    }

    @Test func aTasksEndDeliveredWhileItsEntryCannotBeReadIsNotReportedAsAMissingFile() async throws {
        // Given the entry of a download a killed process put in place, and its task's end delivered to a
        // launch on a locked device
        let destination = folder.url.appendingPathComponent("placed.bin")
        let task = URLSession.shared.downloadTask(with: URL(fileURLWithPath: "/placed.bin"))
        defer { task.cancel() }
        task.taskDescription =
            BackgroundTasks.Note(endpoint: "GET placed.bin", destination: destination).encoded
        owedDownload(to: destination, name: BackgroundJournal.name(of: task))
        let reports = Recorder<BackgroundTransfer>()
        let background = BackgroundTasks(
            identifier: "locked", report: { reports.append($0) }, journal: locked)
        // When the system delivers the task's end
        background.completed(task, error: nil)
        // Then nothing is reported now, and the entry is still owed
        #expect(reports.values.isEmpty)
        #expect(BackgroundJournal(folder: journalFolder).pending().count == 1)
    }

    @Test func theStandardJournalIsNamedByTheAppsBundleIdentifier() throws {
        // Given two apps sharing one Application Support folder (Mac apps may)
        let first = try #require(
            BackgroundJournal.standard(for: "downloads", bundleIdentifier: "com.example.one"))
        let second = try #require(
            BackgroundJournal.standard(for: "downloads", bundleIdentifier: "com.example.two"))
        // Then each has a journal of its own, under its identifier
        #expect(first.folder != second.folder)
        #expect(first.folder.path.contains("com.example.one"))
    }
}
