import Foundation
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("StubSession and RecordReplaySession")
struct SessionTests {
    @Test func routesAnswerByPathAndFallBackFor404() async throws {
        // Given
        let session = StubSession.routes(["/v1/movie": .json(#"{"title":"Wonka","year":2023}"#)])
        let provider = NetworkProvider(session: session)
        // When
        let movie = try await provider.send(Endpoint<Movie>(baseURL: exampleURL, path: "movie"))
        let missing = await error {
            try await provider.send(Endpoint<Movie>(baseURL: exampleURL, path: "other"))
        }
        // Then
        #expect(movie.title == "Wonka")
        let failure = try #require((missing as? NetworkError)?.statusFailure, "expected a 404")
        #expect(failure.statusCode == 404)
    }

    @Test func aRecordingReplaysOfflineWithoutTheAPIKey() async throws {
        // Given an exchange recorded with a key from an upstream stub
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "replay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = RecordReplaySession(
            directory: folder, mode: .record(upstream: .json(#"{"title":"광해","year":2012}"#)))
        var endpoint = Endpoint<Movie>(baseURL: exampleURL, path: "movie")
        endpoint.queryItems = [
            URLQueryItem(name: "key", value: "SECRET"), URLQueryItem(name: "code", value: "1"),
        ]
        _ = try await NetworkProvider(session: recorder).send(endpoint)
        // When replaying with another key
        endpoint.queryItems[0].value = "OTHER"
        let replayed = try await NetworkProvider(
            session: RecordReplaySession(directory: folder, mode: .replay)
        )
        .send(endpoint)
        // Then
        #expect(replayed == Movie(title: "광해", year: 2012))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.count == 1)
        let stored = try String(contentsOf: folder.appendingPathComponent(files[0]), encoding: .utf8)
        #expect(!stored.contains("SECRET"))
        #expect(stored.contains("광해"))
    }

    @Test func binaryBodiesAreStoredAsBase64AndReplayedExactly() async throws {
        // Given
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "replay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0xFF, 0x00])
        let endpoint = Endpoint<Data>(baseURL: exampleURL, path: "poster.png")
        _ = try await NetworkProvider(
            session: RecordReplaySession(
                directory: folder, mode: .replayOrRecord(upstream: .status(200, body: png)))
        ).send(endpoint)
        // When
        let replayed = try await NetworkProvider(
            session: RecordReplaySession(directory: folder, mode: .replay)
        )
        .send(endpoint)
        // Then
        #expect(replayed == png)
    }

    @Test func aMissingRecordingSaysWhichFileToRecord() async {
        // Given
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "replay-\(UUID().uuidString)")
        let provider = NetworkProvider(session: RecordReplaySession(directory: folder, mode: .replay))
        // When
        let thrown = await error {
            try await provider.send(Endpoint<Movie>(baseURL: exampleURL, path: "movie"))
        }
        // Then
        guard case .session(let underlying) = thrown as? NetworkError,
            case .noRecording(let request, _) = underlying as? RecordReplayError
        else {
            Issue.record("expected noRecording, got \(String(describing: thrown))")
            return
        }
        #expect(request == "GET /v1/movie")
        #expect("\(underlying)".contains("Record it once with mode .record"))
    }
}
