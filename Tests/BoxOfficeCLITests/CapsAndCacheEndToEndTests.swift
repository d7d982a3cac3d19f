import Foundation
import TestSupport
import Testing

/// `boxoffice` against a server that floods it, with a cache that outlives the server, and with report
/// destinations a user might type.
@Suite("boxoffice: caps, the offline cache and report destinations", .serialized)
struct CapsAndCacheEndToEndTests {
    func live(_ server: FixtureServer, kobisKey: String = "test-key", cache: URL) -> [String: String] {
        [
            "KOBIS_API_KEY": kobisKey, "KAKAO_REST_API_KEY": "test-rest-key",
            "KOBIS_BASE_URL": server.baseURL.appendingPathComponent("kobis").absoluteString,
            "KAKAO_BASE_URL": server.baseURL.appendingPathComponent("kakao").absoluteString,
            "BOXOFFICE_CACHE_DIR": cache.path,
        ]
    }

    // MARK: - Caps

    @Test func aSearchAnsweringThousandsOfFilmsPrintsTwentyAndSaysHowManyMatched() async throws {
        // Given a server answering every search with 5,000 films of 100,000, where 20 were asked for
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let cache = TemporaryFolder()
        let environment = live(server, kobisKey: "k-flood", cache: cache.url)
        // When
        let table = try await runBoxOffice(["search", "서울"], environment: environment)
        let json = try await runBoxOffice(["search", "서울", "--json"], environment: environment)
        // Then the table shows 20 films under a line saying how many matched
        #expect(table.status == 0, "\(table.errors)")
        let lines = table.output.split(separator: "\n")
        #expect(lines.first == "20 of 100,000 films match \"서울\":")
        #expect(lines.count == 21)
        // And the JSON holds 20 films and the total
        struct Search: Decodable {
            struct Film: Decodable { let movieCode: String }
            let total: Int
            let movies: [Film]
        }
        let decoded = try JSONDecoder().decode(Search.self, from: Data(json.output.utf8))
        #expect(decoded.total == 100_000)
        #expect(decoded.movies.count == 20)
    }

    @Test func aSearchAnswerOverTheSizeLimitFailsWithoutReadingIt() async throws {
        // Given a server answering every search with 100,000 films: 12 MB
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let cache = TemporaryFolder()
        // When
        let result = try await runBoxOffice(
            ["search", "서울"], environment: live(server, kobisKey: "k-huge", cache: cache.url))
        // Then
        #expect(result.status == 1)
        #expect(result.errors.contains("larger than the 1048576 bytes the app reads"))
    }

    @Test func theReportOfA2000RowChartAsksForTenFilmsAndSaysWhatWasDropped() async throws {
        // Given a server sending 2,000 rows for the day
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let folder = TemporaryFolder()
        let environment = live(server, kobisKey: "k-flood", cache: folder.url)
        // When
        let result = try await runBoxOffice(
            ["report", "--date", "2026-11-21", "--output", "-"], environment: environment)
        // Then one chart and at most ten films' details were asked of KOBIS
        #expect(result.status == 0, "\(result.errors)")
        let kobis = try await server.requests().filter { $0.path.hasPrefix("/kobis/") }
        #expect(kobis.count <= 11, "\(kobis.count) KOBIS requests")
        #expect(result.errors.contains("had 1990 rows beyond its top 10; they are left out"))
        #expect(result.output.components(separatedBy: "<li class=\"film\"").count - 1 == 10)
    }

    @Test func theDailyChartOfA2000RowDayShowsTenRowsAndANote() async throws {
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let cache = TemporaryFolder()
        let result = try await runBoxOffice(
            ["daily", "--date", "2026-11-21", "--json"],
            environment: live(server, kobisKey: "k-flood", cache: cache.url))
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.components(separatedBy: "\"rank\"").count - 1 == 10)
        #expect(result.errors.contains("note: the chart for 2026-11-21 had 1990 rows beyond its top 10"))
    }

    // MARK: - The offline cache

    @Test func aPastChartAndAFilmsDetailsWorkAgainWithTheServerGone() async throws {
        // Given a chart and a film looked at once, live
        let cache = TemporaryFolder()
        var server: FixtureServer? = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let environment = live(try #require(server), cache: cache.url)
        let first = try await runBoxOffice(["daily", "--date", "2026-11-20"], environment: environment)
        let firstMovie = try await runBoxOffice(["movie", "20261002"], environment: environment)
        #expect(first.status == 0, "\(first.errors)")
        #expect(firstMovie.status == 0, "\(firstMovie.errors)")
        #expect(!first.errors.contains("from the cache"))
        // When the server is gone and the same commands run again
        server = nil
        let again = try await runBoxOffice(["daily", "--date", "2026-11-20"], environment: environment)
        let againMovie = try await runBoxOffice(["movie", "20261002"], environment: environment)
        // Then both succeed from the cache, and say so
        #expect(again.status == 0, "\(again.errors)")
        #expect(again.output == first.output)
        #expect(again.errors.contains("note: the chart for 2026-11-20 came from the cache (saved "))
        #expect(againMovie.status == 0, "\(againMovie.errors)")
        #expect(againMovie.errors.contains("note: the details of 20261002 came from the cache"))
        #expect(againMovie.output.contains("서울 탈출"))
        // And a report of that day says the same of its chart, on stderr and on the page
        let report = try await runBoxOffice(
            ["report", "--date", "2026-11-20", "--output", "-"], environment: environment)
        #expect(report.status == 0, "\(report.errors)")
        #expect(report.errors.contains("note: the chart for 2026-11-20 came from the cache (saved "))
        #expect(report.output.contains("The chart came from the cache, saved "))
    }

    @Test func aFolderThatRefusesWritesIsAWarningNotASilentLoss() async throws {
        // Given a cache whose images folder opens but refuses writes
        let cache = TemporaryFolder()
        let images = cache.url.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: images.path)
        var immutable = false
        if FileManager.default.isWritableFile(atPath: images.path) {
            // Root ignores permissions: make the folder immutable instead, where the file system allows.
            immutable = try await runTool("/usr/bin/chattr", ["+i", images.path]) == 0
            guard immutable else {
                print("skipped: cannot make a folder read-only for this user (no chattr)")
                return
            }
        }
        defer {
            if immutable { _ = try? runToolBlocking("/usr/bin/chattr", ["-i", images.path]) }
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: images.path)
        }
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        // When
        let result = try await runBoxOffice(
            ["movie", "20261002"], environment: live(server, cache: cache.url))
        // Then the poster still shows, and a warning says it is not kept
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.contains("warning: the poster cache folder cannot be used"))
        #expect(result.errors.contains("nothing can be written in"))
    }

    // MARK: - Report destinations

    @Test func aDashWritesTheReportToStandardOutput() async throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let result = try await runBoxOffice(
            ["report", "--offline", "--output", "-"], environment: ["BOXOFFICE_CACHE_DIR": folder.url.path],
            directory: folder.url)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("<!doctype html>"))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("-").path))
    }

    @Test func aPathEndingInASlashIsAFolderThatMustExist() async throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        // When the folder is missing
        let missing = try await runBoxOffice(
            ["report", "--offline", "--output", "nonexistent-dir/"],
            environment: ["BOXOFFICE_CACHE_DIR": folder.url.path], directory: folder.url)
        // Then nothing is written, and the error says why
        #expect(missing.status == 1)
        #expect(missing.errors.contains("nonexistent-dir does not exist"))
        #expect(
            !FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("nonexistent-dir").path)
        )
    }

    @Test func anExistingFolderReceivesTheReportUnderItsDefaultName() async throws {
        let folder = TemporaryFolder()
        let reports = folder.url.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        let result = try await runBoxOffice(
            ["report", "--offline", "--date", "2026-11-21", "--output", reports.path],
            environment: ["BOXOFFICE_CACHE_DIR": folder.url.path])
        #expect(result.status == 0, "\(result.errors)")
        let page = reports.appendingPathComponent("boxoffice-2026-11-21.html")
        #expect(FileManager.default.fileExists(atPath: page.path))
        #expect(result.output == page.path + "\n")
    }

    @Test func aNameLongerThan255BytesFailsBeforeAnyRequest() async throws {
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let folder = TemporaryFolder()
        let name = folder.url.deletingLastPathComponent().appendingPathComponent(
            String(repeating: "가", count: 90) + ".html")  // 275 bytes
        let result = try await runBoxOffice(
            ["report", "--output", name.path], environment: live(server, cache: folder.url))
        #expect(result.status == 1)
        #expect(result.errors.contains("bytes long; file names hold at most 255"))
        #expect(!result.errors.contains("NSError"))
        #expect(try await server.requests().isEmpty)
    }

    // MARK: - Keys

    @Test func aTwentyThousandCharacterKeyIsRefusedAtOnceEvenOffline() async throws {
        // The scrubbing of a key's starts was quadratic in its length: 6 s for this key.
        let result = try await runBoxOffice(
            ["--offline"], environment: ["KOBIS_API_KEY": String(repeating: "k", count: 20_000)])
        #expect(result.status == 1)
        #expect(result.errors.contains("KOBIS_API_KEY is not an API key"))
    }
}

/// Runs `tool` with `arguments` and returns its exit status.
func runTool(_ tool: String, _ arguments: [String]) async throws -> Int32 {
    try await offThePool { try runToolBlocking(tool, arguments) }
}

func runToolBlocking(_ tool: String, _ arguments: [String]) throws -> Int32 {
    guard FileManager.default.isExecutableFile(atPath: tool) else { return 127 }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}
