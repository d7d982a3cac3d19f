import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Uploads through URLSession to the fixture server on 127.0.0.1, from files in a temporary folder.
@Suite("Uploads from a file to a real server")
struct UploadTests {
    /// What the server's /upload says it received.
    struct Received: Decodable, Equatable {
        let bytes: Int
        let sum: UInt32
    }

    let server: TestServer
    let upload: Endpoint<Received>
    /// Removed with the suite's instance, after each test.
    let temporary: TemporaryFolder
    var folder: URL { temporary.url }

    init() async throws {
        server = try await TestServer.shared.value
        upload = EndpointGroup(baseURL: server.baseURL).endpoint(.post, "upload")
        temporary = try TemporaryFolder.create("uploads")
    }

    func provider() -> NetworkProvider {
        NetworkProvider(session: URLSession(configuration: .ephemeral))
    }

    /// Writes `count` bytes (byte i is i % 253) and returns the file and what the server should report.
    func file(named name: String, bytes count: Int) throws -> (URL, Received) {
        let data = patterned(count, period: 253)
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return (url, Received(data))
    }

    @Test func aFileIsUploadedWholeWithProgress() async throws {
        // Given a 1 MB file
        let (url, expected) = try file(named: "movie.bin", bytes: 1_000_000)
        let reports = Recorder<TransferProgress>()
        // When
        let received = try await provider().upload(upload, fromFile: url) { reports.append($0) }
        // Then
        #expect(received == expected)
        let sent = reports.values.map(\.completedBytes)
        #expect(sent == sent.sorted())
        #expect(reports.values.last == TransferProgress(completedBytes: 1_000_000, expectedBytes: 1_000_000))
    }

    @Test func bytesInMemoryAreUploadedWithProgress() async throws {
        // Given 300 KB in memory
        let data = patterned(300_000, period: 253)
        let reports = Recorder<TransferProgress>()
        // When
        let received = try await provider().upload(upload, data: data) { reports.append($0) }
        // Then
        #expect(received == Received(data))
        #expect(reports.values.last == TransferProgress(completedBytes: 300_000, expectedBytes: 300_000))
    }

    @Test func aMultipartFormWithAFilePartIsStreamedFromDisk() async throws {
        // Given a form with a text field and a 500 KB file part
        let (url, _) = try file(named: "poster.png", bytes: 500_000)
        var form = MultipartFormData(boundary: "XYZ")
        form.append("Wonka", name: "title")
        form.append(contentsOf: url, name: "poster", contentType: "image/png")
        let encoded = try form.encoded()
        // When
        let received = try await provider().upload(upload, multipart: form)
        // Then the server received exactly the encoded form
        #expect(received == Received(encoded))
        #expect(String(decoding: encoded.prefix(160), as: UTF8.self).contains(#"filename="poster.png""#))
    }

    @Test func aSymbolicLinkToAFileIsUploadedAsTheFile() async throws {
        // Given a link to a file
        let (url, expected) = try file(named: "linked.bin", bytes: 1000)
        let link = folder.appendingPathComponent("link.bin")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: url)
        // When
        let received = try await provider().upload(upload, fromFile: link)
        // Then
        #expect(received == expected)
    }

    @Test func aFIFOIsRefusedInsteadOfBlockingTheUpload() async throws {
        // Given a named pipe no one writes to
        let fifo = folder.appendingPathComponent("pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        // When
        let thrown = await error { try await provider().upload(upload, fromFile: fifo) }
        // Then
        try #require(
            (thrown as? NetworkError)?.fileError != nil,
            "expected a file error, got \(String(describing: thrown))")
    }

    @Test func aFIFOFilePartIsRefusedToo() async throws {
        // Given
        let fifo = folder.appendingPathComponent("pipe-part")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        var form = MultipartFormData()
        form.append(contentsOf: fifo, name: "file")
        // When
        let thrown = await error { try await provider().upload(upload, multipart: form) }
        // Then
        try #require(
            (thrown as? NetworkError)?.fileError != nil,
            "expected a file error, got \(String(describing: thrown))")
    }

    @Test func aFormThatFailsToWriteLeavesNoTemporaryFileWithItsFields() async throws {
        // Given a form with a secret field, then a file part that does not exist
        let sentinel = "S3NT1NEL-\(UUID().uuidString)"
        var form = MultipartFormData()
        form.append(sentinel, name: "password")
        form.append(contentsOf: folder.appendingPathComponent("missing.bin"), name: "file")
        // When
        let thrown = await error { try await provider().upload(upload, multipart: form) }
        // Then the upload fails, and no temporary file holds the field
        #expect(thrown != nil)
        let temporary = FileManager.default.temporaryDirectory
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
            .filter { $0.hasPrefix("networklayer-multipart-") }
            .filter { name in
                let contents = (try? Data(contentsOf: temporary.appendingPathComponent(name))) ?? Data()
                return contents.range(of: Data(sentinel.utf8)) != nil
            }
        #expect(leftovers.isEmpty)
    }

    @Test func aStubSessionReceivesTheFileAsTheBody() async throws {
        // Given
        let (url, _) = try file(named: "small.bin", bytes: 10)
        let (session, requests) = recordingStub(.status(200, body: Data(#"{"bytes":10,"sum":0}"#.utf8)))
        // When
        _ = try await NetworkProvider(session: session).upload(upload, fromFile: url)
        // Then
        #expect(requests.values.first?.httpBody == patterned(10, period: 253))
    }
}

extension UploadTests.Received {
    /// What the server reports for `data`.
    init(_ data: Data) {
        let sum = data.withUnsafeBytes { bytes in
            var sum: UInt32 = 0
            for byte in bytes { sum &+= UInt32(byte) }
            return sum
        }
        self.init(bytes: data.count, sum: sum)
    }
}
