import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A background download the user force-quit comes back cancelled with the reason and URLSession's
/// resume data: the report keeps both (never in the journal or a mirror), and the app can go on from it.
@Suite("Background downloads: going on after a force-quit")
struct ForceQuitResumeTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder.create("force-quit")
    }

    /// The error URLSession gives a background download the user force-quit.
    func forceQuit(resumeData: Data) -> URLError {
        URLError(
            .cancelled,
            userInfo: [
                BackgroundTasks.cancelledReasonKey: 0, SessionWrittenFile.resumeDataKey: resumeData,
            ])
    }

    func orphanedDownload(to destination: URL) -> URLSessionTask {
        let task = URLSession(configuration: .ephemeral).downloadTask(
            with: URL(string: "http://127.0.0.1:9/film")!)
        task.taskDescription = BackgroundTasks.Note(endpoint: "GET film", destination: destination).encoded
        return task
    }

    @Test func aForceQuitDownloadIsReportedWithItsReasonAndResumeDataButNeitherInItsErrorNorItsMirror() throws
    {
        // Given a download the user force-quit, 90 % done
        let resumeData = Data("RESUME-PLIST-with-Authorization-Bearer-SECRET".utf8)
        let reports = Recorder<BackgroundTransfer>()
        let journal = BackgroundJournal(folder: folder.url.appendingPathComponent("journal"))
        // What the journal holds while the report is made (it is removed after).
        let journaled = Recorder<Data>()
        let background = BackgroundTasks(
            identifier: "quit",
            report: { transfer in
                reports.append(transfer)
                for path in FileManager.default.subpaths(atPath: journal.folder.path) ?? [] {
                    if let bytes = try? Data(contentsOf: journal.folder.appendingPathComponent(path)) {
                        journaled.append(bytes)
                    }
                }
            }, journal: journal)
        let task = orphanedDownload(to: folder.url.appendingPathComponent("film.bin"))
        defer { task.cancel() }
        // When the relaunched app receives its end
        background.completed(task, error: forceQuit(resumeData: resumeData))
        // Then the report says why and can go on; the error, the mirror and the journal hold no resume data
        let report = try #require(reports.values.first)
        #expect(report.cancellationReason == .userForceQuitApplication)
        #expect(report.resumeData == resumeData)
        guard case .transport(let failure)? = report.error else {
            Issue.record("expected the cancellation, got \(String(describing: report.error))")
            return
        }
        #expect(failure.code == .cancelled)
        #expect(failure.userInfo[SessionWrittenFile.resumeDataKey] == nil)
        #expect(!journaled.values.isEmpty)
        #expect(journaled.values.allSatisfy { $0.range(of: Data("SECRET".utf8)) == nil })
        var dumped = ""
        dump(report, to: &dumped)
        #expect(!dumped.contains("SECRET"))
        #expect(dumped.contains("\(resumeData.count) bytes"))
    }

    @Test func goingOnFromResumeDataURLSessionCannotUseStartsTheDownloadOver() async throws {
        // Given a report whose resume data this URLSession cannot use (FoundationNetworking has none)
        let server = try await TestServer.shared.value
        let destination = folder.url.appendingPathComponent("again.bin")
        let events = Recorder<String>()
        var configuration = NetworkProvider.Configuration(onEvent: { event in
            switch event {
            case .started: events.append("started")
            case .failed: events.append("failed")
            case .finished: events.append("finished")
            default: break
            }
        })
        configuration.downloadWindow = nil
        var seams = NetworkProvider.Seams()
        seams.downloadsWithTasks = true
        let provider = NetworkProvider(
            session: URLSession(configuration: .ephemeral), middlewares: [], configuration: configuration,
            seams: seams)
        let report = BackgroundTransfer(
            endpoint: "GET ranged", kind: .download(destination: destination), response: nil, body: Data(),
            error: .transport(URLError(.cancelled)), cancellationReason: .userForceQuitApplication,
            resumeData: Data("not resume data".utf8))
        // When the app goes on from it
        let file = try await provider.download(
            EndpointGroup(baseURL: server.baseURL).get("ranged", query: ["bytes": "1000"], as: Data.self),
            to: destination, resuming: report)
        // Then the whole file came from a download started over (FoundationNetworking cannot resume, so
        // on Linux no resume is tried; on Apple platforms a failed resume comes first)
        #expect(events.values.suffix(2) == ["started", "finished"])
        #expect(file.byteCount == 1000)
        #expect(try Data(contentsOf: destination) == patterned(1000, period: 251))
    }

    @Test func onlyAFailureThatIsNeitherTransientNorACancellationStartsAResumedDownloadOver() {
        // Given the failures a resumed download may end with
        let unusable = NetworkError.transport(URLError(.cannotDecodeRawData))
        let dropped = NetworkError.transport(URLError(.networkConnectionLost))
        let cancelled = NetworkError.transport(URLError(.cancelled))
        let refused = NetworkError.unacceptableStatus(
            .init(statusCode: 404, headers: [:], body: Data(), url: nil))
        // Then only resume data URLSession could not use starts the download over
        #expect(NetworkProvider.isUnusableResume(unusable))
        #expect(!NetworkProvider.isUnusableResume(dropped))
        #expect(!NetworkProvider.isUnusableResume(cancelled))
        #expect(!NetworkProvider.isUnusableResume(refused))
    }
}
