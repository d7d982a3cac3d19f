import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads whose connection fails after the last byte arrived, from the fixture server on 127.0.0.1:
/// it sends the whole answer chunked, then neither the last chunk nor a close, until the client gives up.
@Suite("Downloads that fail after their last byte")
struct DownloadCompletionTests {
    let server: TestServer
    let group: EndpointGroup
    let folder: URL
    /// Removes the folder, and what the tests left in it, when the suite's instance is released.
    private let temporary: TemporaryFolder

    init() async throws {
        server = try await TestServer.shared.value
        group = EndpointGroup(baseURL: server.baseURL)
        temporary = try TemporaryFolder.create("complete")
        folder = temporary.url
    }

    /// A 50,000-byte download whose first answer stalls after its last byte, with a 500 ms idle timeout.
    func stalling() -> (Endpoint<Data>, String) {
        let id = UUID().uuidString
        var endpoint: Endpoint<Data> = group.get(
            "ranged", query: ["bytes": "50000", "id": id, "stallAfterAll": "1", "stallMs": "5000"])
        endpoint.timeout = .milliseconds(500)
        return (endpoint, id)
    }

    /// Expects `thrown` to be the server's `416`, refused, and no file at `destination`.
    func expectRefused416(
        _ thrown: (any Error)?, leaving destination: URL, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .unacceptableStatus(let failure)? = thrown as? NetworkError else {
            Issue.record(
                "expected the 416 to be refused, got \(String(describing: thrown))",
                sourceLocation: sourceLocation)
            return
        }
        #expect(failure.statusCode == 416, sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: destination.path), sourceLocation: sourceLocation)
    }

    @Test func aWindowThatStallsAfterItsLastByteCompletesWithoutAnotherRequest() async throws {
        // Given a first window whose answer announces 50,000 bytes, sends them all, then stalls
        let (endpoint, id) = stalling()
        let destination = folder.appendingPathComponent("stalled-window.bin")
        // When the idle timeout ends the transfer
        let file = try await downloadProvider(window: 100_000).download(endpoint, to: destination)
        // Then the download is complete, and nothing more was asked for
        #expect(try await rangesAsked(id, of: group) == ["bytes=0-99999"])
        #expect(try Data(contentsOf: destination) == patterned(50_000, period: 251))
        #expect(file.byteCount == 50_000)
        #expect(file.resumeCount == 0)
        #expect(file.response.statusCode == 206)
    }

    @Test func aBodyOfUnknownLengthThatStallsAfterItsLastByteCompletesOnTheServers416() async throws {
        // Given a 200 without a length (chunked) that sends every byte, then stalls
        let (endpoint, id) = stalling()
        let destination = folder.appendingPathComponent("stalled-body.bin")
        // When the idle timeout ends it, the resume asks for the rest, and the server has none (416)
        let file = try await downloadProvider(window: nil).download(endpoint, to: destination)
        // Then the file received is the download: not thrown away, not asked for again
        #expect(try await rangesAsked(id, of: group) == ["", "bytes=50000-"])
        #expect(try Data(contentsOf: destination) == patterned(50_000, period: 251))
        #expect(file.response.statusCode == 200)
        #expect(file.resumeCount == 1)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".part")
        }
        #expect(leftovers.isEmpty)
    }

    @Test func a416ForABodyWhoseAnnouncedTotalIsLargerCompletesNothing() async throws {
        // Given a 100,000-byte body that drops at 50,000, and a server answering the resume with a 416
        // saying the body has 50,000 bytes
        let id = UUID().uuidString
        let endpoint: Endpoint<Data> = group.get(
            "ranged", query: ["bytes": "100000", "id": id, "dropAfter": "50000", "resume416": "same"])
        let destination = folder.appendingPathComponent("short.bin")
        // When
        let thrown = await error {
            try await downloadProvider(window: nil).download(endpoint, to: destination)
        }
        // Then the half file is not taken for the whole one
        expectRefused416(thrown, leaving: destination)
    }

    @Test func aBodyThatOverrunsItsRangeAfterItsLastByteIsNotTakenForComplete() async throws {
        // Given a window answered with its 50,000 bytes and 100 more than its Content-Range says
        let id = UUID().uuidString
        let endpoint: Endpoint<Data> = group.get(
            "ranged", query: ["bytes": "50000", "id": id, "overrunAfterAll": "1"])
        let destination = folder.appendingPathComponent("overrun.bin")
        // When
        let thrown = await error {
            try await downloadProvider(window: 100_000).download(endpoint, to: destination)
        }
        // Then the refused body completes nothing, neither at once nor by the server's 416 to the resume
        expectRefused416(thrown, leaving: destination)
        #expect(try await rangesAsked(id, of: group) == ["bytes=0-99999", "bytes=50000-149999"])
    }

    @Test func a416WithAnotherValidatorCompletesNothing() async throws {
        // Given a body of unknown length that stalls after 50,000 bytes, and a server that answers the
        // resume with a 416 of another version (it ignores If-Range)
        let id = UUID().uuidString
        var endpoint: Endpoint<Data> = group.get(
            "ranged",
            query: [
                "bytes": "50000", "id": id, "stallAfterAll": "1", "stallMs": "5000", "resume416": "changed",
            ])
        endpoint.timeout = .milliseconds(500)
        let destination = folder.appendingPathComponent("other-version.bin")
        // When
        let thrown = await error {
            try await downloadProvider(window: nil).download(endpoint, to: destination)
        }
        // Then the file is not taken for the other version's
        expectRefused416(thrown, leaving: destination)
    }
}
