import Foundation
import NetworkLayer
import Recipes
import Testing

/// Recipe 4: a download with progress and cancellation, leaving no partial file.
@MainActor
@Suite("Recipe: a download with progress")
struct TrailerDownloadTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    var destination: URL { folder.url.appendingPathComponent("trailer.mp4") }

    @Test func aFinishedDownloadIsInPlaceWithItsProgressAtOne() async throws {
        // Given a server sending 100 KB
        let body = Data(repeating: 7, count: 100_000)
        let download = TrailerDownload(
            provider: NetworkProvider(
                session: .status(200, body: body, headers: ["Content-Length": "100000"])))
        // When
        download.start(FilmAPI.trailer("t1"), to: destination)
        let state = try await download.state.value(where: { if case .finished = $0 { true } else { false } })
        // Then
        #expect(state == .finished(destination))
        #expect(try Data(contentsOf: destination) == body)
        #expect(download.progress.value == 1)
    }

    @Test func aCancelledDownloadLeavesNothingBehind() async throws {
        // Given a download under way, from a server that takes its time to answer
        let server = StubSession.status(200, body: Data(count: 10)).delayed(by: .seconds(60))
        let download = TrailerDownload(provider: NetworkProvider(session: server))
        download.start(FilmAPI.trailer("t1"), to: destination)
        // A nap, not a loop of yields, so the work waited for gets a thread (TestSupport: waitWhile).
        while server.requests.isEmpty { try? await Task.sleep(for: .milliseconds(1)) }
        // When it is cancelled
        download.cancel()
        _ = try await download.state.value(where: { $0 == .cancelled })
        // Then nothing is at the destination, nor beside it
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }
}
