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

/// What review found in the example's account of its posters and failures.
@Suite("Posters and failures said as they happened")
struct PosterProvenanceTests {
    @Test func aStoredPosterShownAfterItsHostFailedSaysTheHostFailedNotThatItWasUnreachable() async throws {
        // Given a stored poster shown because its host answered 503
        var thrown: (any Error)?
        do {
            _ = try await NetworkProvider(session: .status(503)).send(
                Endpoint<Data>(baseURL: try #require(URL(string: "https://img.example")), path: "p.png"))
        } catch {
            thrown = error
        }
        let failure = try #require(thrown as? NetworkError)
        // When, Then its source says the host failed
        let source = PosterSource(.staleAfterError(age: .seconds(60), error: failure), onDisk: true)
        #expect(source == .staleAfterHostFailure)
        #expect(source.phrase == "from disk, out of date: its host failed")
        #expect(
            PosterSource(
                .staleAfterError(age: .seconds(60), error: .transport(URLError(.timedOut))), onDisk: true)
                == .stale)
    }

    @Test func anImageWhoseValidatorSharesSixCharactersWithAKeyIsKeptButOneCarryingItWholeIsNot() throws {
        // Given a hex key, and a CDN's hex ETag sharing six characters with it
        let key = "0123456789abcdef0123456789abcdef"
        let secrets = CarriedSecrets([key])
        let image = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // When, Then a shared fragment is no reason to refuse it; the whole key is, in a value or a name
        try PosterError.checkCarriesNoKey(image, headers: ["ETag": "\"ffff89abcdeffff\""], secrets: secrets)
        #expect(throws: PosterError.carriesCredentials(.image)) {
            try PosterError.checkCarriesNoKey(
                image, headers: ["ETag": "\"\(key.uppercased())\""], secrets: secrets)
        }
        #expect(throws: PosterError.carriesCredentials(.image)) {
            try PosterError.checkCarriesNoKey(image, headers: ["X-\(key)": "1"], secrets: secrets)
        }
    }

    @Test func aStatusTheAPIDidNotExplainIsNamedWithoutThePageItSent() async {
        // Given a proxy that answers 403 with an HTML page
        let repository = KobisBoxOfficeRepository(
            api: KobisAPI(key: "k"),
            provider: NetworkProvider(
                session: .status(403, body: Data("<html><body>Forbidden</body></html>".utf8))))
        // When a chart is asked for
        do {
            _ = try await repository.dailyBoxOffice(for: Day(year: 2024, month: 1, day: 1))
            Issue.record("expected a refusal")
        } catch {
            // Then the status is named, the page is not shown
            guard case BoxOfficeError.refused(let message) = error else {
                Issue.record("expected a refusal, got \(error)")
                return
            }
            #expect(message.hasPrefix("HTTP 403 from "))
            #expect(!message.contains("<html>"))
        }
    }

    @Test func theDemosPostersAreSaidToBeDrawnOnEveryScreen() async throws {
        // Given the poster provider of a run without a Kakao key, over the demo's images
        let folder = TemporaryFolder()
        let demo = try #require(DemoData.bundled)
        let network = NetworkProvider(session: demo.session())
        let posters = PosterProvider(
            api: KakaoAPI(), searches: network, images: network, directory: folder.url, isDemo: true)
        // When a poster is found
        let poster = try await posters.poster(for: details("20261001", "별빛 우체국"))
        // Then its source is the demo's, whichever screen shows it
        #expect(poster?.source == .demo)
    }
}
