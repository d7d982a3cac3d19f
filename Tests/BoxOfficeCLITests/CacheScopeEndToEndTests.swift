import Foundation
import TestSupport
import Testing

/// `boxoffice` runs in different modes and against different servers sharing one cache folder: none
/// reads what another kept.
@Suite("boxoffice: the cache keeps each mode's and each server's answers apart", .serialized)
struct CacheScopeEndToEndTests {
    func live(_ server: FixtureServer, cache: URL) -> [String: String] {
        [
            "KOBIS_API_KEY": "test-key", "KAKAO_REST_API_KEY": "test-rest-key",
            "KOBIS_BASE_URL": server.baseURL.appendingPathComponent("kobis").absoluteString,
            "KAKAO_BASE_URL": server.baseURL.appendingPathComponent("kakao").absoluteString,
            "BOXOFFICE_CACHE_DIR": cache.path,
        ]
    }

    struct Movie: Decodable {
        struct Poster: Decodable {
            let url: String
            let source: String
        }
        let poster: Poster?
    }

    func poster(_ output: String) throws -> Movie.Poster? {
        try JSONDecoder().decode(Movie.self, from: Data(output.utf8)).poster
    }

    @Test func aLiveRunAfterADemoRunShowsTheLivePosterNotTheDemos() async throws {
        // Given a demo run that kept a film's poster in the cache folder
        let cache = TemporaryFolder()
        let demo = try await runBoxOffice(
            ["movie", "20261002", "--json", "--offline"], environment: ["BOXOFFICE_CACHE_DIR": cache.url.path]
        )
        #expect(demo.status == 0, "\(demo.errors)")
        #expect(try poster(demo.output)?.url.contains("demo.boxoffice.invalid") == true)
        // When a live run with the same folder shows the same film
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let live = try await runBoxOffice(
            ["movie", "20261002", "--json"], environment: live(server, cache: cache.url))
        // Then its poster is the live server's, downloaded, not the demo's from disk
        #expect(live.status == 0, "\(live.errors)")
        let shown = try #require(try poster(live.output))
        #expect(shown.source == "network")
        #expect(!shown.url.contains("demo.boxoffice.invalid"))
        #expect(try await server.requests().contains { $0.path.hasPrefix("/posters/") })
    }
}
