import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads asked for a window at a time (`Range: bytes=first-last`), from the fixture server on
/// 127.0.0.1, which logs the `Range` header of every request it gets for a download's id.
@Suite("Downloads in windows from a real server")
struct DownloadWindowTests {
    let server: TestServer
    let group: EndpointGroup
    let folder: URL
    /// Removes the folder, and what the tests left in it, when the suite's instance is released.
    private let temporary: TemporaryFolder

    init() async throws {
        server = try await TestServer.shared.value
        group = EndpointGroup(baseURL: server.baseURL)
        temporary = try TemporaryFolder.create("windows")
        folder = temporary.url
    }

    /// A download of `bytes` bytes (byte i is i % 251) with an id of its own, and that id.
    func ranged(bytes: Int, _ options: [String: String] = [:]) -> (Endpoint<Data>, String) {
        let id = UUID().uuidString
        let query = options.merging(["bytes": "\(bytes)", "id": id]) { _, new in new }
        return (group.get("ranged", query: query), id)
    }

    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".part") }
    }

    @Test func aDownloadIsAskedForOneWindowAfterAnother() async throws {
        // Given a 350 KB body and 100 KB windows
        let (endpoint, id) = ranged(bytes: 350_000)
        let destination = folder.appendingPathComponent("windows.bin")
        let reports = Recorder<TransferProgress>()
        // When
        let file = try await downloadProvider(window: 100_000).download(endpoint, to: destination) {
            reports.append($0)
        }
        // Then four requests asked for consecutive windows, and the file is whole
        #expect(
            try await rangesAsked(id, of: group) == [
                "bytes=0-99999", "bytes=100000-199999", "bytes=200000-299999", "bytes=300000-399999",
            ])
        #expect(try Data(contentsOf: destination) == patterned(350_000, period: 251))
        #expect(file.byteCount == 350_000)
        #expect(file.resumeCount == 0)
        #expect(file.response.statusCode == 206)
        #expect(reports.values.last == TransferProgress(completedBytes: 350_000, expectedBytes: 350_000))
        #expect(reports.values.allSatisfy { $0.expectedBytes == 350_000 })
        #expect(try leftovers().isEmpty)
    }

    @Test func anEndpointThatAcceptsOnly200AcceptsTheWindowsPartialAnswers() async throws {
        // Given an endpoint whose only acceptable status is 200
        let (ranged, id) = ranged(bytes: 250_000)
        var endpoint = ranged
        endpoint.acceptableStatusCodes = [200]
        let destination = folder.appendingPathComponent("strict.bin")
        // When
        let file = try await downloadProvider(window: 100_000).download(endpoint, to: destination)
        // Then the 206 answers to the download's own ranges were taken as its 200
        #expect(try await rangesAsked(id, of: group).count == 3)
        #expect(file.response.statusCode == 206)
        #expect(try Data(contentsOf: destination) == patterned(250_000, period: 251))
    }

    @Test func anEndpointThatRefuses200RefusesThe206Too() async throws {
        // Given an endpoint that accepts only 204
        var (endpoint, _) = ranged(bytes: 1_000)
        endpoint.acceptableStatusCodes = [204]
        let destination = folder.appendingPathComponent("refused.bin")
        // When
        let thrown = await error {
            try await downloadProvider(window: 100_000).download(endpoint, to: destination)
        }
        // Then
        let failure = try #require(
            (thrown as? NetworkError)?.statusFailure,
            "expected unacceptableStatus, got \(String(describing: thrown))")
        #expect(failure.statusCode == 206)
        #expect(try leftovers().isEmpty)
    }

    @Test func aWindowSmallerThan64KiBIsRaisedToIt() async throws {
        // Given a window of 1,000 bytes
        let (endpoint, id) = ranged(bytes: 150_000)
        let destination = folder.appendingPathComponent("small-window.bin")
        // When
        _ = try await downloadProvider(window: 1_000).download(endpoint, to: destination)
        // Then three requests of 64 KiB were enough, not 150
        #expect(
            try await rangesAsked(id, of: group) == [
                "bytes=0-65535", "bytes=65536-131071", "bytes=131072-196607",
            ])
        #expect(try Data(contentsOf: destination) == patterned(150_000, period: 251))
    }

    @Test func aDropWithinAWindowResumesFromTheLastByteReceived() async throws {
        // Given a server that closes the first connection after 50 KB of a 100 KB window
        let (endpoint, id) = ranged(bytes: 250_000, ["dropAfter": "50000"])
        let destination = folder.appendingPathComponent("dropped-window.bin")
        // When
        let file = try await downloadProvider(window: 100_000).download(endpoint, to: destination)
        // Then the next request starts at the first byte missing, and windows go on from there
        #expect(
            try await rangesAsked(id, of: group) == [
                "bytes=0-99999", "bytes=50000-149999", "bytes=150000-249999",
            ])
        #expect(file.resumeCount == 1)
        #expect(try Data(contentsOf: destination) == patterned(250_000, period: 251))
    }

    @Test func aServerThatIgnoresRangesSendsTheWholeBodyToTheFirstRequest() async throws {
        // Given a server answering every request with a 200 of the whole body
        let (endpoint, id) = ranged(bytes: 350_000, ["noRanges": "1"])
        let destination = folder.appendingPathComponent("whole.bin")
        // When
        let file = try await downloadProvider(window: 100_000).download(endpoint, to: destination)
        // Then one request was enough
        #expect(try await rangesAsked(id, of: group) == ["bytes=0-99999"])
        #expect(file.response.statusCode == 200)
        #expect(try Data(contentsOf: destination) == patterned(350_000, period: 251))
    }

    @Test func aFileChangedBetweenWindowsIsDownloadedAgainAndDescribedByItsNewVersion() async throws {
        // Given a file that changes after the first window (another ETag, other bytes)
        let (endpoint, id) = ranged(bytes: 250_000, ["changeAfter": "1"])
        let destination = folder.appendingPathComponent("changed.bin")
        // When
        let file = try await downloadProvider(window: 100_000).download(endpoint, to: destination)
        // Then the second window's If-Range failed, the server sent the new version whole, and the
        // response is that version's
        #expect(try await rangesAsked(id, of: group) == ["bytes=0-99999", "bytes=100000-199999"])
        #expect(try Data(contentsOf: destination) == patterned(250_001, period: 251).dropFirst())
        #expect(file.response.statusCode == 200)
        #expect(file.response.headerFields.value(named: "ETag") == "\"v1-changed-250000\"")
    }

    @Test func aWindowOfAnotherVersionIsRefusedWhenTheServerIgnoresIfRange() async throws {
        // Given a file that changes after the first window, on a server that honours Range but ignores
        // If-Range (as some object stores do): it answers the second window with the new version's bytes
        let (endpoint, id) = ranged(bytes: 250_000, ["changeAfter": "1", "ignoreIfRange": "1"])
        let destination = folder.appendingPathComponent("mixed.bin")
        // When
        let file = try await downloadProvider(window: 100_000).download(endpoint, to: destination)
        // Then the 206 without the validator asked for is not appended: the file is one version, whole,
        // never 100,000 bytes of the old one followed by the new one
        #expect(try await rangesAsked(id, of: group).first == "bytes=0-99999")
        #expect(try Data(contentsOf: destination) == patterned(250_001, period: 251).dropFirst())
        #expect(file.response.headerFields.value(named: "ETag") == "\"v1-changed-250000\"")
    }

    @Test func withoutAValidatorTheRestIsAskedForWhole() async throws {
        // Given a server that serves ranges but sends neither an ETag nor a Last-Modified, so later
        // windows could come from another version of the file
        let (endpoint, id) = ranged(bytes: 250_000, ["noValidator": "1"])
        let destination = folder.appendingPathComponent("unvalidated.bin")
        // When
        _ = try await downloadProvider(window: 100_000).download(endpoint, to: destination)
        // Then the second request asks for the whole body, which starts the file over
        #expect(try await rangesAsked(id, of: group) == ["bytes=0-99999", ""])
        #expect(try Data(contentsOf: destination) == patterned(250_000, period: 251))
    }

    @Test func aWindowAnsweredWithoutTheTotalIsFollowedByTheWholeBody() async throws {
        // Given a server whose 206 answers say `bytes 0-99999/*`: where the body ends is unknown
        let (endpoint, id) = ranged(bytes: 250_000, ["unknownTotal": "1"])
        let destination = folder.appendingPathComponent("unknown-total.bin")
        // When
        let file = try await downloadProvider(window: 100_000).download(endpoint, to: destination)
        // Then the download started over with one request for the whole body, and got all of it
        #expect(try await rangesAsked(id, of: group) == ["bytes=0-99999", ""])
        #expect(file.response.statusCode == 200)
        #expect(try Data(contentsOf: destination) == patterned(250_000, period: 251))
        #expect(try leftovers().isEmpty)
    }

    @Test func anEmptyBodyRefusedAsAnUnsatisfiableRangeIsAskedForWhole() async throws {
        // Given an empty body, whose first window the server answers with 416
        let (endpoint, id) = ranged(bytes: 0)
        let destination = folder.appendingPathComponent("empty.bin")
        // When
        let file = try await downloadProvider(window: 100_000).download(endpoint, to: destination)
        // Then the second request asked for the whole (empty) body, and the file exists, empty
        #expect(try await rangesAsked(id, of: group) == ["bytes=0-99999", ""])
        #expect(file.response.statusCode == 200)
        #expect(try Data(contentsOf: destination).isEmpty)
    }

    @Test func aPostIsNeverAskedForAgainInWindows() async throws {
        // Given a download sent as a POST
        let (ranged, id) = ranged(bytes: 250_000)
        var endpoint = ranged
        endpoint.method = .post
        let destination = folder.appendingPathComponent("posted.bin")
        // When
        _ = try await downloadProvider(window: 100_000).download(endpoint, to: destination)
        // Then it was sent once, without a range
        #expect(try await rangesAsked(id, of: group) == [""])
        #expect(try Data(contentsOf: destination) == patterned(250_000, period: 251))
    }

    @Test func withoutAWindowTheBodyIsAskedForInOneRequest() async throws {
        // Given a provider whose downloads are not windowed
        let (endpoint, id) = ranged(bytes: 250_000)
        let destination = folder.appendingPathComponent("one-request.bin")
        // When
        let file = try await downloadProvider(window: nil).download(endpoint, to: destination)
        // Then
        #expect(try await rangesAsked(id, of: group) == [""])
        #expect(file.response.statusCode == 200)
        #expect(try Data(contentsOf: destination) == patterned(250_000, period: 251))
    }

    @Test func theTotalDeadlineCoversEveryWindowOfAnAttempt() async throws {
        // Given three windows that take 600 ms each, and a deadline of 1.5 s for the attempt
        let id = UUID().uuidString
        var endpoint: Endpoint<Data> = group.get(
            "ranged", query: ["bytes": "300000", "id": id, "delayMs": "600"])
        endpoint.deadline = .milliseconds(1_500)
        let destination = folder.appendingPathComponent("deadline.bin")
        // When
        let thrown = await error {
            try await downloadProvider(window: 100_000).download(endpoint, to: destination, resumeAttempts: 0)
        }
        // Then a later window ran into the attempt's deadline, though no window took 1.5 s
        try #require(
            (thrown as? NetworkError)?.timeout != nil, "expected a timeout, got \(String(describing: thrown))"
        )
        #expect(try leftovers().isEmpty)
    }
}
