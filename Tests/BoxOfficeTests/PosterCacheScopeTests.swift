import BoxOffice
import CacheKit
import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The poster caches keep each mode's and each server's answers apart, and a "no poster" briefly.
@Suite("The poster provider: whose answers a cache entry holds")
struct PosterCacheScopeTests {
    final class TestTime: @unchecked Sendable {
        // @unchecked Sendable: `current` is only read and written under `lock`.
        private let lock = NSLock()
        private var current = Date(timeIntervalSince1970: 1_795_000_000)
        var now: Date { lock.withLock { current } }
        func advance(seconds: TimeInterval) { lock.withLock { current += seconds } }
    }

    let folder = TemporaryFolder()
    let time = TestTime()

    /// A provider in `scope` whose search answers with `imageURL`, recording every URL requested.
    func provider(scope: String, imageURL: String, requests: Recorder<String>) -> PosterProvider {
        let search =
            #"{"documents":[{"image_url":"\#(imageURL)","thumbnail_url":"","width":1,"height":1,"display_sitename":"","doc_url":"","collection":"","datetime":""}],"meta":{"is_end":true,"pageable_count":1,"total_count":1}}"#
        let empty = #"{"documents":[],"meta":{"is_end":true,"pageable_count":0,"total_count":0}}"#
        let session = StubSession { request in
            requests.append(request.url?.absoluteString ?? "")
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let isSearch = request.url?.path.hasSuffix("/v2/search/image") == true
            let body = isSearch ? Data((imageURL.isEmpty ? empty : search).utf8) : png
            // The image's host says it stays fresh for a day.
            let headers = isSearch ? [:] : ["Cache-Control": "max-age=86400"]
            return (body, try StubSession.makeResponse(for: request, status: 200, headers: headers))
        }
        let network = NetworkProvider(session: session)
        let time = time
        return PosterProvider(
            api: KakaoAPI(), searches: network, images: network, directory: folder.url,
            clock: CacheClock { time.now }, scope: scope)
    }

    func searches(_ requests: Recorder<String>) -> Int {
        requests.values.filter { $0.contains("/v2/search/image") }.count
    }

    @Test func anotherScopeSearchesAgainAndGetsItsOwnPoster() async throws {
        // Given a poster found and kept on disk in the demo's scope
        let requests = Recorder<String>()
        let movie = details("20261002", "서울 탈출")
        let demo = provider(scope: "demo", imageURL: "https://posters.example/demo.png", requests: requests)
        _ = try await demo.poster(for: movie)
        // When a live run with the same folder asks for the same film
        let live = provider(scope: "live", imageURL: "https://images.example/real.png", requests: requests)
        let poster = try await live.poster(for: movie)
        // Then it searched again, and shows the live answer, downloaded, not the demo's
        #expect(searches(requests) == 2)
        #expect(poster?.url.absoluteString == "https://images.example/real.png")
        #expect(poster?.source == .network)
    }

    @Test func theSameScopeStillReadsItsPosterFromDisk() async throws {
        // Given a poster kept on disk in a scope
        let requests = Recorder<String>()
        let movie = details("20261002", "서울 탈출")
        _ = try await provider(scope: "live", imageURL: "https://images.example/a.png", requests: requests)
            .poster(for: movie)
        // When the next run, in the same scope, asks again
        let again = try await provider(
            scope: "live", imageURL: "https://images.example/a.png", requests: requests
        ).poster(for: movie)
        // Then it came from disk, with no request
        #expect(again?.source == .disk)
        #expect(requests.values.count == 2)
    }

    @Test func noPosterIsKeptForAnHourNotForThirtyDays() async throws {
        // Given a search that found no image
        let requests = Recorder<String>()
        let movie = details("20261014", "2001: 다시 보는 고전")
        let posters = provider(scope: "live", imageURL: "", requests: requests)
        #expect(try await posters.poster(for: movie) == nil)
        // When it is asked again within the hour, then after it
        time.advance(seconds: 3_000)
        _ = try await posters.poster(for: movie)
        let withinTheHour = searches(requests)
        time.advance(seconds: 700)
        _ = try await posters.poster(for: movie)
        // Then the hour kept the answer, and the search was sent again after it
        #expect(withinTheHour == 1)
        #expect(searches(requests) == 2)
    }

    @Test func anUnusableImageURLIsNotKept() async throws {
        // Given a search answering with an ftp: image URL
        let requests = Recorder<String>()
        let movie = details("20261002", "서울 탈출")
        let posters = provider(scope: "live", imageURL: "ftp://images.example/a.png", requests: requests)
        await #expect(throws: BoxOfficeError.self) { try await posters.poster(for: movie) }
        // When it is asked again
        await #expect(throws: BoxOfficeError.self) { try await posters.poster(for: movie) }
        // Then the search was sent again: the refused answer was never kept
        #expect(searches(requests) == 2)
    }
}
