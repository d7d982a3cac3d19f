import Foundation
import NetworkLayer
import Testing

/// A download writes a whole file and asks for ranges itself: an endpoint with a `Range` of its own is
/// refused before any request, with a typed error that points to `send`.
@Suite("NetworkProvider.download: an endpoint's own Range")
struct DownloadRangeTests {
    @Test(arguments: ["Range", "range", "RANGE"])
    func aDownloadWhoseEndpointSetsARangeIsRefusedBeforeAnyRequest(header: String) async throws {
        // Given an endpoint asking for the first 100 bytes of a log
        let session = StubSession.status(
            206, body: Data(count: 100), headers: ["Content-Range": "bytes 0-99/1000"])
        var log = Endpoint<Data>(baseURL: exampleURL, path: "logs/today")
        log.headers[header] = "bytes=0-99"
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent(
            "range-\(UUID().uuidString)")
        // When
        let thrown = await error(of: {
            try await NetworkProvider(session: session).download(log, to: destination)
        })
        // Then it is refused, nothing was asked for, and nothing was written
        guard case .invalidRequest(.rangeInDownload(let endpoint)) = thrown as? NetworkError else {
            Issue.record("expected the Range to be refused, got \(String(describing: thrown))")
            return
        }
        #expect(endpoint.contains("logs/today"))
        #expect(session.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(thrown.map { "\($0)" }?.contains("send(_:)") == true)
    }

    @Test func theSameEndpointSentWithSendGetsItsBytes() async throws {
        let session = StubSession.status(
            206, body: Data(count: 100), headers: ["Content-Range": "bytes 0-99/1000"])
        var log = Endpoint<Data>(baseURL: exampleURL, path: "logs/today")
        log.headers["Range"] = "bytes=0-99"
        log.acceptableStatusCodes = 200...299
        let bytes = try await NetworkProvider(session: session).send(log)
        #expect(bytes.count == 100)
    }

    @Test func aPartialAnswerToARequestThatAskedNoRangeIsNotTakenAsTheWholeFile() async throws {
        // Given a custom session that answers a plain download with the first 100 bytes of 1,000
        let session = StubSession.status(
            206, body: Data(count: 100), headers: ["Content-Range": "bytes 0-99/1000"])
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent(
            "partial-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        // When the file is downloaded
        let thrown = await error(of: {
            try await NetworkProvider(session: session).download(
                Endpoint<Data>(baseURL: exampleURL, path: "logs/today"), to: destination)
        })
        // Then the download fails as an unusable answer, as on a URLSession, and no file is left as if
        // it were whole
        guard case .transport(let failure)? = thrown as? NetworkError else {
            Issue.record("expected a transport failure, got \(String(describing: thrown))")
            return
        }
        #expect(failure.code == .cannotParseResponse)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(session.requests.first?.headers["Range"] == nil)
    }

    @Test func aResumedAnswerThatStopsShortOfItsTotalIsNotTakenAsTheWholeFile() async throws {
        // Given a custom session whose answer to a resume says 1,000 bytes but carries 100 of 900 missing
        let session = StubSession { request in
            if request.value(forHTTPHeaderField: "Range") == nil {
                return (
                    Data(count: 100),
                    try StubSession.makeResponse(
                        for: request, status: 200,
                        headers: ["ETag": "\"v1\"", "Accept-Ranges": "bytes", "Content-Length": "1000"])
                )
            }
            return (
                Data(count: 100),
                try StubSession.makeResponse(
                    for: request, status: 206,
                    headers: ["ETag": "\"v1\"", "Content-Range": "bytes 100-199/1000"])
            )
        }
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent(
            "short-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        // When the file is downloaded
        let thrown = await error {
            try await NetworkProvider(session: session).download(
                Endpoint<Data>(baseURL: exampleURL, path: "logs/today"), to: destination)
        }
        // Then each short answer is a dropped connection, resumed until the resumes run out, and no file
        // of fewer than 1,000 bytes is placed as the whole file
        guard case .transport(let failure)? = thrown as? NetworkError else {
            Issue.record("expected a dropped connection, got \(String(describing: thrown))")
            return
        }
        #expect(failure.code == .networkConnectionLost)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(session.requests.count > 1)
    }
}
