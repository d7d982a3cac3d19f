import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(Glibc)
    import Glibc
#endif

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
        // Given the upload of a form with a 2 GiB file part to a server that never answers, its boundary
        // telling its temporary copy from other tests'
        defer { try? FileManager.default.removeItem(at: folder) }
        let boundary = "cancel-\(UUID().uuidString)"
        var form = MultipartFormData(boundary: boundary)
        form.append(contentsOf: try sparseFile(size: 2 << 30), name: "video", contentType: "video/mp4")
        let provider = NetworkProvider(session: StubSession.status(200).delayed(by: .seconds(60)))
        let endpoint = Endpoint<Data>(baseURL: exampleURL, path: "videos", method: .post)
        let upload = Task { try await provider.upload(endpoint, multipart: form) }
        // When it is cancelled as soon as its copy appears, by a thread of its own (neither Swift's pool
        // nor Dispatch's, which other tests need: it looks every millisecond), which then watches the copy
        // until it is gone
        let watched = await Self.onAThreadOfItsOwn {
            () -> (atCancel: UInt64, largest: UInt64, removed: Bool)? in
            let deadline = Date().addingTimeInterval(60)
            var found: String?
            while found == nil, Date() < deadline {
                found = Self.copy(marked: boundary)
                if found == nil { usleep(1_000) }
            }
            guard let path = found else { return nil }
            let atCancel = Self.size(of: path) ?? 0
            upload.cancel()
            var largest = atCancel
            while Date() < deadline, let size = Self.size(of: path) {
                largest = max(largest, size)
                usleep(1_000)
            }
            return (atCancel, largest, Self.size(of: path) == nil)
        }
        let thrown = await error { try await upload.value }
        // Then the copy stopped within a few pieces of the cancellation (not at 2 GiB), the upload ended
        // with CancellationError, and the copy is gone
        let watch = try #require(watched, "the form's temporary copy never appeared")
        #expect(watch.atCancel < 2 << 30, "the copy was complete before the test could cancel it")
        #expect(
            watch.largest < watch.atCancel + (64 << 20),
            "the copy went from \(watch.atCancel) to \(watch.largest) bytes after cancellation")
        #expect(watch.removed)
        #expect(thrown is CancellationError)
    }

    /// `work`'s result, run on a `Thread` of its own.
    static func onAThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    /// The path of the temporary copy of the form whose boundary is `boundary`, if it exists yet.
    static func copy(marked boundary: String) -> String? {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(BackgroundTasks.Note.temporaryBodyPrefix) {
            let path = temporary.appendingPathComponent(name).path
            guard let handle = FileHandle(forReadingAtPath: path) else { continue }
            defer { try? handle.close() }
            if let head = try? handle.read(upToCount: 128),
                String(decoding: head, as: UTF8.self).contains(boundary)
            {
                return path
            }
        }
        return nil
    }

    static func size(of path: String) -> UInt64? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? UInt64
    }
}
