import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

/// Cancelling a multipart upload stops copying its form to the temporary file and removes the file.
@Suite("NetworkProvider: cancelling a multipart upload")
struct MultipartCancellationTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "MultipartCancel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// A sparse file of `size` bytes: instant to make, read like zeros.
    func sparseFile(size: UInt64) throws -> URL {
        let url = folder.appendingPathComponent("large.bin")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: size)
        try handle.close()
        return url
    }

    @Test func aCancelledCopyStopsAtTheNextPieceAndThrowsCancellationError() throws {
        // Given a form with a 64 MiB file part, whose copy is cancelled once four pieces are written
        defer { try? FileManager.default.removeItem(at: folder) }
        var form = MultipartFormData()
        form.append(contentsOf: try sparseFile(size: 64 << 20), name: "video", contentType: "video/mp4")
        let target = folder.appendingPathComponent("form.body")
        var asked = 0
        // When
        #expect(throws: CancellationError.self) {
            try form.write(
                to: target,
                stoppingWhen: {
                    asked += 1
                    return asked > 4
                })
        }
        // Then it stopped there: four pieces written, not 64 MiB
        let written = try FileManager.default.attributesOfItem(atPath: target.path)[.size] as? UInt64 ?? 0
        #expect(written < 2 << 20, "\(written) bytes written after cancellation")
    }

    @Test func cancellingAnUploadStopsCopyingItsFormAndRemovesTheCopy() async throws {
        // Given the upload of a form with a 2 GiB file part to a server that never answers
        defer { try? FileManager.default.removeItem(at: folder) }
        var form = MultipartFormData()
        form.append(contentsOf: try sparseFile(size: 2 << 30), name: "video", contentType: "video/mp4")
        let provider = NetworkProvider(session: StubSession.status(200).delayed(by: .seconds(60)))
        let endpoint = Endpoint<Data>(baseURL: exampleURL, path: "videos", method: .post)
        let before = Set(temporaryBodies())
        let upload = Task { try await provider.upload(endpoint, multipart: form) }
        var copy: String?
        await waitFor("the form's temporary file") {
            copy = Set(temporaryBodies()).subtracting(before).first
            return copy != nil
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(copy ?? "").path
        // When it is cancelled while the copy is under way, and the copy is watched until it is removed
        func size() -> UInt64? { (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? UInt64 }
        let atCancel = size() ?? 0
        upload.cancel()
        var largest: UInt64 = 0
        let finished = Task { await error { try await upload.value } }
        await waitFor("the temporary file to be removed") {
            let now = size()
            largest = max(largest, now ?? 0)
            return now == nil
        }
        // Then the copy stopped within a few pieces of the cancellation (not at 2 GiB), the upload ended
        // with CancellationError, and the copy is gone
        #expect(atCancel < 2 << 30, "the copy was complete before the test could cancel it")
        #expect(
            largest < atCancel + (64 << 20),
            "the copy went from \(atCancel) to \(largest) bytes after cancellation")
        #expect(await finished.value is CancellationError)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    func temporaryBodies() -> [String] {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path))
            ?? []
        return names.filter { $0.hasPrefix(BackgroundTasks.Note.temporaryBodyPrefix) }
    }

    /// Waits until `condition` holds, at most 30 seconds.
    func waitFor(_ what: String, _ condition: () -> Bool) async {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            if ContinuousClock.now > deadline {
                Issue.record("waited 30 s for \(what)")
                return
            }
            await Task.yield()
        }
    }
}
