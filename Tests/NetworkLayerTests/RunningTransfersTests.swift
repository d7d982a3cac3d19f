import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A provider made again at launch finds its background session's transfers still under way, with
/// their endpoints and destinations, and can cancel them. Linux has no background configuration: the
/// provider is told its session is one, and the task of an earlier launch is one started on that session
/// with the note NetworkLayer writes.
@Suite("Background transfers still running after a relaunch")
struct RunningTransfersTests {
    let server: TestServer
    let folder: TemporaryFolder

    init() async throws {
        server = try await TestServer.shared.value
        folder = try TemporaryFolder.create("running")
    }

    func provider(
        identifier: String, reporting reports: AsyncStream<BackgroundTransfer>.Continuation? = nil
    ) -> NetworkProvider {
        NetworkProvider(
            sessionConfiguration: .ephemeral, delegate: nil, middlewares: [], configuration: .init(),
            background: BackgroundTasks(identifier: identifier, report: { reports?.yield($0) }))
    }

    /// A download task the launch before started on `provider`'s session, to a server that never answers.
    func downloadOfAnEarlierLaunch(on provider: NetworkProvider, to destination: URL) throws {
        let session = try #require(provider.session as? URLSession)
        let task = session.downloadTask(with: server.baseURL.appendingPathComponent("hang"))
        task.taskDescription = BackgroundTasks.Note(endpoint: "GET hang", destination: destination).encoded
        task.resume()
    }

    @Test func theProviderMadeAgainListsATransferOfTheLaunchBeforeWithItsEndpointAndDestination() async throws
    {
        // Given a download still running from the launch before
        let identifier = UUID().uuidString
        let destination = folder.url.appendingPathComponent("trailer.mp4")
        try downloadOfAnEarlierLaunch(on: provider(identifier: identifier), to: destination)
        // When the app, relaunched, makes its provider again and asks
        let transfers = await provider(identifier: identifier).runningTransfers()
        // Then
        #expect(transfers.count == 1)
        #expect(transfers.first?.endpoint == "GET hang")
        #expect(transfers.first?.kind == .download(destination: destination))
        #expect(transfers.first?.progress.completedBytes == 0)
        for transfer in transfers { transfer.cancel() }
    }

    @Test func aTransferCancelledFromTheListEndsAndIsReportedWithItsCancellation() async throws {
        // Given a download of the launch before, listed by the provider made again
        let identifier = UUID().uuidString
        let destination = folder.url.appendingPathComponent("trailer.mp4")
        try downloadOfAnEarlierLaunch(on: provider(identifier: identifier), to: destination)
        let (reports, reporter) = AsyncStream.makeStream(of: BackgroundTransfer.self)
        let provider = provider(identifier: identifier, reporting: reporter)
        let transfer = try #require(await provider.runningTransfers().first)
        // When
        transfer.cancel()
        // Then it is reported once, cancelled, and is no longer listed; no file is left
        var iterator = reports.makeAsyncIterator()
        let report = try #require(await iterator.next())
        #expect(report.kind == .download(destination: destination))
        guard case .transport(let failure)? = report.error else {
            Issue.record("expected a cancelled transfer, got \(String(describing: report.error))")
            return
        }
        #expect(failure.code == .cancelled)
        #expect(await provider.runningTransfers().isEmpty)
        #expect(folder.fileNames.isEmpty)
    }

    @Test func aDownloadAskedAgainToTheSameDestinationJoinsTheTaskOfTheLaunchBefore() async throws {
        // Given a download of the launch before still running (its body waits behind a gate)
        let identifier = UUID().uuidString
        let destination = folder.url.appendingPathComponent("film.bin")
        let group = EndpointGroup(baseURL: server.baseURL)
        let id = UUID().uuidString
        let endpoint: Endpoint<Data> = group.get("ranged", query: ["bytes": "200000", "gate": id, "id": id])
        let earlier = provider(identifier: identifier)
        let session = try #require(earlier.session as? URLSession)
        let task = session.downloadTask(with: try endpoint.makeRequest())
        task.taskDescription = BackgroundTasks.Note(endpoint: endpoint.name, destination: destination).encoded
        task.resume()
        // When the app, relaunched, asks for the same download again, and the body comes once a caller
        // waits for a task
        let relaunched = provider(identifier: identifier)
        let download = Task { try await relaunched.download(endpoint, to: destination) }
        let transfers = try #require((relaunched.transport as? URLSessionTransport)?.made.withLock { $0 })
        #expect(await eventually { transfers.handledTaskCount == 1 })
        let opened: Endpoint<Data> = group.get("open", query: ["gate": id])
        _ = try await downloadProvider(window: nil).send(opened)
        let file = try await download.value
        // Then it got the running task's file, and the server was asked once
        #expect(file.byteCount == 200_000)
        #expect(try Data(contentsOf: destination) == patterned(200_000, period: 251))
        #expect(try await rangesAsked(id, of: group).count == 1)
    }

    @Test func aProviderOnAnotherSessionHasNoRunningTransfers() async {
        // Given
        let provider = NetworkProvider(session: StubSession.json("{}"))
        // When, Then
        #expect(await provider.runningTransfers().isEmpty)
    }
}
