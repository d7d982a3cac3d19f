import CacheKit
import Foundation
import NetworkLayer
import TestSupport
import Testing

@testable import BoxOffice

/// The poster store writes an image's bytes once: a `304` confirming it stores only its headers again.
@Suite("The poster store's writes")
struct PosterImageStoreTests {
    @Test func storingTheSameImageAgainWritesOnlyItsHead() throws {
        // Given a poster stored once
        let folder = TemporaryFolder()
        let (store, problem) = PosterImageStore.make(
            directory: folder.url, below: folder.url, clock: .system, scope: "test",
            failures: WriteFailures { _ in })
        #expect(problem == nil)
        let image = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        let first = CachedHTTPResponse(
            statusCode: 200, headers: ["ETag": "\"p1\""], body: image, requestDate: Date(),
            responseDate: Date())
        store.store(first, forKey: "key")
        // When a 304 confirms it (the same body, newer dates), and then a new version arrives
        let confirmed = CachedHTTPResponse(
            statusCode: 200, headers: ["ETag": "\"p1\""], body: image, requestDate: Date(),
            responseDate: Date().addingTimeInterval(60))
        store.store(confirmed, forKey: "key")
        var changed = confirmed
        changed.body = image + Data([4])
        store.store(changed, forKey: "key")
        // Then the bytes were written for the first and the new version only, and read back newest
        #expect(store.bodyWrites.value == 2)
        #expect(store.response(forKey: "key")?.body == image + Data([4]))
    }
}
