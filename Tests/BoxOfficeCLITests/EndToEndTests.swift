import Foundation
import TestSupport
import Testing

/// The built `boxoffice` executable, run as a user would.
@Suite("boxoffice end to end", .serialized)
struct EndToEndTests {
    struct DailyJSON: Decodable {
        struct Movie: Decodable {
            let rank: Int
            let rankChange: Int
            let isNew: Bool
            let movieCode: String
            let title: String
            let openDate: String?
            let audienceCount: Int
            let audienceAccumulated: Int
            let salesAmount: Int
            let salesShare: Double
            let screenCount: Int
            let showCount: Int
        }
        let date: String
        let movies: [Movie]
    }

    struct MovieJSON: Decodable {
        struct Poster: Decodable {
            let url: String
            let file: String?
            let source: String
        }
        let movieCode: String
        let title: String
        let englishTitle: String
        let openDate: String?
        let runtimeMinutes: Int
        let productionYear: Int?
        let genres: [String]
        let directors: [String]
        let actors: [String]
        let nations: [String]
        let watchGrade: String?
        let poster: Poster?
    }

    @Test func theDefaultCommandShowsTheLatestDemoDayAsATable() async throws {
        // When
        let result = try await runBoxOffice([])
        // Then
        #expect(result.status == 0)
        #expect(result.output.contains("Daily box office 2026-11-21"))
        #expect(result.output.contains("검은 바다"))
    }

    @Test func anOfflineFilmSaysItIsTheDemosAndItsPosterWasDrawnNotDownloaded() async throws {
        // When a film is shown offline, as text and as JSON, each with an empty cache
        let (first, second) = (TemporaryFolder(), TemporaryFolder())
        let text = try await runBoxOffice(
            ["movie", "20261002", "--offline"], environment: ["BOXOFFICE_CACHE_DIR": first.url.path])
        let json = try await runBoxOffice(
            ["movie", "20261002", "--offline", "--json"],
            environment: ["BOXOFFICE_CACHE_DIR": second.url.path])
        // Then it says the data are the demo's, and the poster is not said to come from the network
        #expect(text.status == 0)
        #expect(text.errors.contains("these are the demo data"))
        #expect(text.output.contains("generated for the demo"))
        #expect(!text.output.contains("from the network"))
        let movie = try JSONDecoder().decode(MovieJSON.self, from: Data(json.output.utf8))
        #expect(movie.poster?.source == "demo")
    }

    @Test func refreshAsksKobisForAKeptChartAgain() async throws {
        // Given a past chart kept after one live run
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let cache = TemporaryFolder()
        let live = [
            "KOBIS_API_KEY": "test-key",
            "KOBIS_BASE_URL": server.baseURL.appendingPathComponent("kobis").absoluteString,
            "BOXOFFICE_CACHE_DIR": cache.url.path,
        ]
        _ = try await runBoxOffice(["daily", "--date", "2026-11-20"], environment: live)
        let kept = try await runBoxOffice(["daily", "--date", "2026-11-20"], environment: live)
        // When it is asked for with --refresh
        let refreshed = try await runBoxOffice(
            ["daily", "--date", "2026-11-20", "--refresh"], environment: live)
        // Then the kept chart answered without KOBIS, and --refresh asked KOBIS again
        let charts = try await server.requests().filter { $0.path.contains("searchDailyBoxOfficeList") }
        #expect(kept.errors.contains("came from the cache"))
        #expect(refreshed.status == 0)
        #expect(!refreshed.errors.contains("came from the cache"))
        #expect(charts.count == 2)
    }

    @Test func dailyJSONFollowsTheContract() async throws {
        // When
        let result = try await runBoxOffice(["daily", "--date", "2026-11-19", "--json", "--offline"])
        // Then
        #expect(result.status == 0)
        let daily = try JSONDecoder().decode(DailyJSON.self, from: Data(result.output.utf8))
        #expect(daily.date == "2026-11-19")
        #expect(daily.movies.map(\.rank) == Array(1...10))
        #expect(daily.movies.allSatisfy { $0.title == $0.title.trimmingCharacters(in: .whitespaces) })
        let reRelease = try #require(daily.movies.first { $0.movieCode == "20261014" })
        #expect(reRelease.openDate == nil)
        let raw = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let rows = raw?["movies"] as? [[String: Any]]
        #expect(rows?.allSatisfy { $0.keys.contains("openDate") } == true)
    }

    @Test func movieJSONFollowsTheContractAndReportsWhereThePosterCameFrom() async throws {
        // Given an empty cache
        let cache = TemporaryFolder()
        let environment = ["BOXOFFICE_CACHE_DIR": cache.url.path]
        // When
        let first = try await runBoxOffice(["movie", "20261001", "--json"], environment: environment)
        let second = try await runBoxOffice(["movie", "20261001", "--json"], environment: environment)
        // Then
        #expect(first.status == 0)
        let movie = try JSONDecoder().decode(MovieJSON.self, from: Data(first.output.utf8))
        #expect(movie.title == "별빛 우체국")
        #expect(movie.openDate == "2026-10-15")
        #expect(movie.runtimeMinutes == 118)
        #expect(movie.poster?.source == "demo")
        let again = try JSONDecoder().decode(MovieJSON.self, from: Data(second.output.utf8))
        #expect(again.poster?.source == "disk")
        let file = try #require(again.poster?.file)
        #expect(file.hasPrefix(cache.url.path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func aFilmWithoutAPosterStillPrintsWithAWarning() async throws {
        // When (the folder is held until the test ends, so it is removed then)
        let cache = TemporaryFolder()
        let result = try await runBoxOffice(
            ["movie", "20261014", "--json"], environment: ["BOXOFFICE_CACHE_DIR": cache.url.path])
        // Then
        #expect(result.status == 0)
        #expect(result.output.contains("\"poster\" : null"))
        #expect(result.errors.contains("warning: no poster found"))
    }

    @Test(arguments: [
        (["daily", "--date", "2026-02-30"], "error: --date 2026-02-30 is not a real date"),
        (["movie"], "error: missing movie code"),
        (["nonsense"], "error: unknown command 'nonsense'"),
        (["daily", "--what"], "error: unknown option --what"),
    ])
    func usageErrorsExitWith64AndOneClearLine(arguments: [String], message: String) async throws {
        // When
        let result = try await runBoxOffice(arguments)
        // Then
        #expect(result.status == 64)
        #expect(result.errors.hasPrefix(message))
        #expect(result.output.isEmpty)
    }

    @Test func helpPrintsUsageAndExitsWithZero() async throws {
        let result = try await runBoxOffice(["-h"])
        #expect(result.status == 0)
        #expect(result.output.contains("USAGE"))
    }

    @Test func liveAgainstALocalServerTheJSONMatchesTheOfflineRun() async throws {
        // Given the demo data served as live KOBIS and Kakao APIs on 127.0.0.1
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let cache = TemporaryFolder()
        let live = [
            "KOBIS_API_KEY": "test-key", "KAKAO_REST_API_KEY": "test-rest-key",
            "KOBIS_BASE_URL": server.baseURL.appendingPathComponent("kobis").absoluteString,
            "KAKAO_BASE_URL": server.baseURL.appendingPathComponent("kakao").absoluteString,
            "BOXOFFICE_CACHE_DIR": cache.url.path,
        ]
        // When
        let liveDaily = try await runBoxOffice(
            ["daily", "--date", "2026-11-20", "--json"], environment: live)
        let offlineDaily = try await runBoxOffice(["daily", "--date", "2026-11-20", "--json", "--offline"])
        let firstMovie = try await runBoxOffice(["movie", "20261002", "--json"], environment: live)
        let secondMovie = try await runBoxOffice(["movie", "20261002", "--json"], environment: live)
        // Then
        #expect(liveDaily.status == 0)
        // The same chart, each saying where it came from
        let liveObject = try #require(
            try JSONSerialization.jsonObject(with: Data(liveDaily.output.utf8)) as? [String: Any])
        let offlineObject = try #require(
            try JSONSerialization.jsonObject(with: Data(offlineDaily.output.utf8)) as? [String: Any])
        #expect((liveObject["movies"] as? NSArray) == (offlineObject["movies"] as? NSArray))
        #expect((liveObject["origin"] as? [String: Any])?["source"] as? String == "network")
        #expect((offlineObject["origin"] as? [String: Any])?["source"] as? String == "demo")
        let first = try JSONDecoder().decode(MovieJSON.self, from: Data(firstMovie.output.utf8))
        let second = try JSONDecoder().decode(MovieJSON.self, from: Data(secondMovie.output.utf8))
        #expect(first.poster?.source == "network")
        #expect(first.poster?.url.contains("/posters/") == true)
        // The server's posters say max-age=0: the second run asks it again, conditionally, and gets a 304.
        #expect(second.poster?.source == "revalidated")
        #expect(second.poster?.file == first.poster?.file)
        let requests = try await server.requests()
        let posterRequests = requests.filter { $0.path.hasPrefix("/posters/") }
        #expect(posterRequests.map { $0.headers["if-none-match"] != nil } == [false, true])
    }

    @Test func aKobisFaultExitsWith1AndOneClearLine() async throws {
        // Given a live KOBIS that refuses the key
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        // When
        let result = try await runBoxOffice(
            ["daily", "--date", "2026-11-20"],
            environment: [
                "KOBIS_API_KEY": "invalid",
                "KOBIS_BASE_URL": server.baseURL.appendingPathComponent("kobis").absoluteString,
            ])
        // Then
        #expect(result.status == 1)
        #expect(result.errors == "error: KOBIS error 320010: 유효하지않은 키값입니다.\n")
    }

    @Test func anUnreachableServerExitsWith1() async throws {
        // When port 9 (discard) refuses the connection
        let result = try await runBoxOffice(
            ["daily", "--date", "2026-11-20"],
            environment: ["KOBIS_API_KEY": "kkkk", "KOBIS_BASE_URL": "http://127.0.0.1:9/kobis"])
        // Then
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("error: "))
    }

    @Test func aMalformedBaseURLExitsWith1NamingTheVariable() async throws {
        let result = try await runBoxOffice(
            ["daily"], environment: ["KOBIS_API_KEY": "kkkk", "KOBIS_BASE_URL": "nope"])
        #expect(result.status == 1)
        #expect(result.errors.contains("KOBIS_BASE_URL=\"nope\" is not an http(s) URL"))
    }

    @Test func browseWorksThroughARealPseudoTerminal() async throws {
        // When a person drives it through a pty: list, grid, days, refresh, details, back, quit
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", ProjectPaths.fixtures.appendingPathComponent("drive_browse.py").path,
            ProjectPaths.binary.path,
        ]
        let cache = TemporaryFolder()
        var environment = ProcessInfo.processInfo.environment
        environment["BOXOFFICE_CACHE_DIR"] = cache.url.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let transcript = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // Then every screen showed what it should, and the terminal was restored
        #expect(process.terminationStatus == 0, "\(transcript)")
        #expect(transcript.contains("ok: the terminal is restored"))
    }

    @Test func browseFitsASmallWindowRedrawsOnResizeAndExits130OnCtrlC() async throws {
        // When a pty of 100x10 is resized to 60x24, then Ctrl-C is pressed (Fixtures/drive_window.py)
        let cache = TemporaryFolder()
        let (status, transcript) = try await offThePool { () throws -> (Int32, String) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "python3", ProjectPaths.fixtures.appendingPathComponent("drive_window.py").path,
                ProjectPaths.binary.path,
            ]
            var environment = ProcessInfo.processInfo.environment
            environment["BOXOFFICE_CACHE_DIR"] = cache.url.path
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let transcript = String(
                decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, transcript)
        }
        // Then every screen fit its window, and Ctrl-C exited as an interrupted program does
        #expect(status == 0, "\(transcript)")
        #expect(transcript.contains("ok: a 100x10 window shows the title, the column names and row 1"))
        #expect(transcript.contains("ok: a resize to 60x24 redraws at once"))
        #expect(transcript.contains("ok: Ctrl-C quits with exit code 130"))
    }
}
