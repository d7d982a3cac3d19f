import Foundation
import TestSupport
import Testing

@testable import BoxOfficeTerminal

/// `boxoffice` against a hostile demo server (Fixtures/demo_server.py), a broken cache folder and
/// careless arguments, run as a user would.
@Suite("boxoffice: hostile servers, files and arguments", .serialized)
struct HardeningTests {
    static let sentinel = "SENTINEL7Q"

    /// The environment of a live run against `server`, with sentinel keys ending in the given modes.
    func live(
        _ server: FixtureServer, kobis: String = "", kakao: String = "", cache: URL
    ) -> [String: String] {
        [
            "KOBIS_API_KEY": Self.sentinel + "K" + kobis, "KAKAO_REST_API_KEY": Self.sentinel + "A" + kakao,
            "KOBIS_BASE_URL": server.baseURL.appendingPathComponent("kobis").absoluteString,
            "KAKAO_BASE_URL": server.baseURL.appendingPathComponent("kakao").absoluteString,
            "BOXOFFICE_CACHE_DIR": cache.path, "BOXOFFICE_TIMEOUT_SECONDS": "0.5",
        ]
    }

    // MARK: - Secrets

    @Test func noKeyReachesOutputTheCacheOrAnyHostButItsAPIOnEveryCommandAndErrorPath() async throws {
        // Given a server that fails in every way a server can, echoing the keys where it can
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let cache = TemporaryFolder()
        let notAFolder = TemporaryFolder()
        try Data("a file".utf8).write(to: notAFolder.url)
        let reports = TemporaryFolder()
        try FileManager.default.createDirectory(at: reports.url, withIntermediateDirectories: true)
        let report = { (name: String) in reports.url.appendingPathComponent(name).path }
        let runs: [(arguments: [String], kobis: String, kakao: String, cache: URL)] = [
            (["daily", "--date", "2026-11-20"], "", "", cache.url),
            (["daily", "--date", "2026-11-20", "--json"], "", "", cache.url),
            (["daily", "--date", "2026-11-20", "--mode", "grid"], "", "", cache.url),
            (["movie", "20261002"], "", "", cache.url),
            (["movie", "20261002", "--json"], "", "", cache.url),
            (["daily", "--date", "2026-11-20"], "-500", "", cache.url),
            (["daily", "--date", "2026-11-20"], "-html", "", cache.url),
            (["daily", "--date", "2026-11-20"], "-404", "", cache.url),
            (["daily", "--date", "2026-11-20"], "-hang", "", cache.url),
            (["daily", "--date", "2026-11-20", "--json"], "-escape", "", cache.url),
            (["daily", "--date", "2026-11-20"], "-echo", "", cache.url),
            (["daily", "--date", "2026-11-20", "--mode", "grid"], "-echo", "", cache.url),
            (["movie", "20261003"], "-escape", "", cache.url),
            (["movie", "20261004"], "", "-401", cache.url),
            (["movie", "20261005", "--json"], "", "-notimage", cache.url),
            (["movie", "20261006"], "", "-ftp", cache.url),
            (["movie", "20261007", "--json"], "", "-keyurl", cache.url),
            (["movie", "20261008"], "", "-userinfo", cache.url),
            (["report", "--date", "2026-11-21", "--output", "-"], "", "-keyurl", cache.url),
            (["movie", "20261001", "--json"], "", "", notAFolder.url),
            (["browse"], "", "", cache.url),
            (["search", "서울"], "", "", cache.url),
            (["search", "서울", "--json"], "-escape", "", cache.url),
            (["search", "the"], "-500", "", cache.url),
            (["search", "the"], "-hang", "", cache.url),
            (["report", "--date", "2026-11-20", "--output", report("a.html")], "-echo", "", cache.url),
            (["report", "--date", "2026-11-20", "--output", report("b.html")], "-escape", "-401", cache.url),
            (["report", "--date", "2026-11-20", "--output", report("c.html")], "-500", "", cache.url),
            (["--help"], "", "", cache.url),
            (["daily", "--date", "2026-13-45"], "", "", cache.url),
        ]
        // When each command runs with sentinel keys
        var failures: [String] = []
        for (index, run) in runs.enumerated() {
            // Each run has a cache folder of its own (inside the one checked below): a chart cached by a
            // well-behaved run would otherwise answer a hostile one, whose path would then go untried.
            let folder = run.cache == cache.url ? cache.url.appendingPathComponent("run-\(index)") : run.cache
            let result = try await runBoxOffice(
                run.arguments, environment: live(server, kobis: run.kobis, kakao: run.kakao, cache: folder))
            // Six characters of a key are already too many: a key cut to fit a column must not show in part.
            if (result.output + result.errors).contains(Self.sentinel.prefix(6)) {
                failures.append(
                    "\(run.arguments) \(run.kobis)\(run.kakao): \(result.output) \(result.errors)")
            }
        }
        // Then no output showed a key, whole or in part
        #expect(failures.isEmpty, "\(failures)")
        // And no report holds one
        let pages = try FileManager.default.contentsOfDirectory(atPath: reports.url.path)
        #expect(pages.sorted() == ["a.html", "b.html"])
        for page in pages {
            let html = try String(contentsOf: reports.url.appendingPathComponent(page), encoding: .utf8)
            #expect(!html.contains(Self.sentinel.prefix(6)), "\(page) holds a key")
        }
        // And no file in the cache holds one
        let files =
            FileManager.default.enumerator(at: cache.url, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? []
        #expect(!files.isEmpty)
        for file in files where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        {
            let bytes = try Data(contentsOf: file)
            #expect(bytes.range(of: Data(Self.sentinel.utf8)) == nil, "\(file.path) holds a key")
        }
        // And each key went to its own API only: KOBIS's in its query, Kakao's in its header (a title
        // echoing KOBIS's key is not sent to Kakao's search; an image URL carrying Kakao's is not followed)
        let requests = try await server.requests()
        #expect(requests.contains { $0.path.hasPrefix("/posters/") || $0.path.hasPrefix("/html-page/") })
        for request in requests {
            let sent = request.path + "\(request.headers)"
            if sent.contains(Self.sentinel + "K") {
                #expect(
                    request.path.hasPrefix("/kobis/"), "KOBIS's key reached \(request.host)\(request.path)")
            }
            if sent.contains(Self.sentinel + "A") {
                #expect(
                    request.path.hasPrefix("/kakao/"), "Kakao's key reached \(request.host)\(request.path)")
            }
        }
        #expect(
            requests.filter { $0.headers["authorization"] != nil }.allSatisfy { $0.path.hasPrefix("/kakao/") }
        )
    }

    @Test(arguments: ["-tagged", "-stuffed"])
    func aPosterWhoseHeadersOrBytesCarryAKeyIsNeitherKeptNorShownNorEmbedded(mode: String) async throws {
        // Given an image host that echoes the Kakao key in a poster's ETag, or inside its bytes
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let cache = TemporaryFolder()
        let reports = TemporaryFolder()
        try FileManager.default.createDirectory(at: reports.url, withIntermediateDirectories: true)
        let page = reports.url.appendingPathComponent("report.html")
        let environment = live(server, kakao: mode, cache: cache.url)
        // When a film's details and a report are made
        let movie = try await runBoxOffice(["movie", "20261002"], environment: environment)
        let report = try await runBoxOffice(
            ["report", "--date", "2026-11-20", "--output", page.path], environment: environment)
        // Then the poster is refused with a reason, and no cache file or embedded image holds the key
        #expect(movie.status == 0)
        #expect(movie.errors.contains("warning: poster unavailable: the image carries an API key"))
        #expect(report.status == 0)
        let key = Data((Self.sentinel + "A").utf8)
        let files =
            FileManager.default.enumerator(at: cache.url, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? []
        for file in files where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        {
            #expect(try Data(contentsOf: file).range(of: key) == nil, "\(file.path) holds the key")
        }
        let html = try String(contentsOf: page, encoding: .utf8)
        let embedded = html.components(separatedBy: ";base64,").dropFirst().compactMap { part in
            Data(base64Encoded: String(part.prefix { $0 != "\"" && $0 != "'" && $0 != ")" }))
        }
        for image in embedded { #expect(image.range(of: key) == nil, "an embedded poster holds the key") }
    }

    // MARK: - The terminal

    @Test func escapeSequencesInTitlesNeverReachTheTerminalAndTheJSONStaysValid() async throws {
        // Given a KOBIS whose titles carry escape sequences, C1 controls and a bidi override
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let folder = TemporaryFolder()
        let environment = live(server, kobis: "-escape", cache: folder.url)
        // When
        let table = try await runBoxOffice(["daily", "--date", "2026-11-20"], environment: environment)
        let json = try await runBoxOffice(
            ["daily", "--date", "2026-11-20", "--json"], environment: environment)
        let details = try await runBoxOffice(["movie", "20261002"], environment: environment)
        // Then nothing the terminal would act on is printed
        for result in [table, json, details] {
            #expect(result.status == 0, "\(result.errors)")
            #expect(!result.output.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" })
        }
        // And the JSON still parses, with the title's characters escaped rather than dropped
        let parsed = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        let first = (parsed?["movies"] as? [[String: Any]])?.first?["title"] as? String
        #expect(first?.contains("\u{1B}[2J") == true)
        #expect(json.output.contains("\\u001b[2J"))
    }

    @Test func anHTTPErrorIsOneLineOnStandardError() async throws {
        // Given a KOBIS that answers 500 with a multi-line HTML page
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        // When
        let folder = TemporaryFolder()
        let result = try await runBoxOffice(
            ["daily", "--date", "2026-11-20"],
            environment: live(server, kobis: "-500", cache: folder.url))
        // Then
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("error: HTTP 500 from "))
        #expect(result.errors.filter { $0 == "\n" }.count == 1)
    }

    @Test func aKobis404IsNotReportedAsAKakaoError() async throws {
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let folder = TemporaryFolder()
        let result = try await runBoxOffice(
            ["daily", "--date", "2026-11-20"],
            environment: live(server, kobis: "-404", cache: folder.url))
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("error: HTTP 404 from "))
        #expect(!result.errors.contains("Kakao"))
    }

    @Test(arguments: [
        ["daily", "--date", "2026-11-20"], ["daily", "--date", "2026-11-20", "--mode", "grid"],
    ])
    func tablesFitANarrowTerminal(arguments: [String]) async throws {
        // When
        let result = try await runBoxOffice(arguments + ["--offline"], environment: ["COLUMNS": "40"])
        // Then every line fits 40 columns
        #expect(result.status == 0)
        let widths = result.output.split(separator: "\n").map { TextWidth.of(String($0)) }
        #expect(widths.allSatisfy { $0 <= 40 }, "\(widths)")
    }

    // MARK: - Files

    @Test func anUnusableCacheFolderWarnsOnceAndThePosterStaysInMemory() async throws {
        // Given a regular file where the cache folder should be
        let notAFolder = TemporaryFolder()
        try Data("a file".utf8).write(to: notAFolder.url)
        // When
        let result = try await runBoxOffice(
            ["movie", "20261001", "--json"], environment: ["BOXOFFICE_CACHE_DIR": notAFolder.url.path])
        // Then the command succeeds, says why once, and reports no file that does not exist
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.components(separatedBy: "warning:").count == 2, "\(result.errors)")
        #expect(result.errors.contains("posters are kept in memory only"))
        let movie = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let poster = movie?["poster"] as? [String: Any]
        #expect(poster?["source"] as? String == "demo")
        #expect(poster?["file"] is NSNull)
    }

    @Test func aTimeoutAfterARetrySaysHowLongTheWholeRequestTook() async throws {
        // Given a KOBIS that never answers, a 0.5 s timeout, and a live provider that retries once
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let cache = TemporaryFolder()
        // When
        let result = try await runBoxOffice(
            ["daily", "--date", "2026-11-20"], environment: live(server, kobis: "-hang", cache: cache.url))
        // Then the message gives each attempt's timeout and the time spent in all, which is longer
        #expect(result.status == 1)
        #expect(result.errors.contains("timed out after 500 ms"), "\(result.errors)")
        let total = try #require(
            result.errors.firstMatch(of: /, ([0-9.]+) s of trying in all/), "\(result.errors)")
        #expect((Double(total.1) ?? 0) >= 1.0)
    }

    @Test func aPosterThatIsNotAnImageIsNeitherShownNorCached() async throws {
        // Given a Kakao whose image URLs serve HTML
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let cache = TemporaryFolder()
        let environment = live(server, kakao: "-notimage", cache: cache.url)
        // When
        let first = try await runBoxOffice(["movie", "20261005", "--json"], environment: environment)
        let second = try await runBoxOffice(["movie", "20261005", "--json"], environment: environment)
        // Then
        #expect(first.status == 0)
        #expect(first.errors.contains("warning: poster unavailable: the image URL did not return a PNG"))
        #expect(second.errors.contains("warning: poster unavailable"))
        let hits = try await server.requests().filter { $0.path.hasPrefix("/html-page/") }
        #expect(hits.count == 2)
    }

    @Test func anFTPPosterURLIsNotFollowed() async throws {
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let folder = TemporaryFolder()
        let result = try await runBoxOffice(
            ["movie", "20261006"], environment: live(server, kakao: "-ftp", cache: folder.url))
        #expect(result.status == 0)
        #expect(
            result.errors.contains(
                "warning: poster unavailable: the image URL's scheme \"ftp\" is not http or https"))
    }

    // MARK: - Arguments and the environment

    @Test(arguments: [["--json=false"], ["daily", "--offline=yes"], ["movie", "20261001", "--json=true"]])
    func aFlagGivenAValueIsAUsageError(arguments: [String]) async throws {
        let result = try await runBoxOffice(arguments)
        #expect(result.status == 64)
        #expect(result.errors.contains("takes no value"))
    }

    @Test func aHugeArgumentIsNotEchoedWhole() async throws {
        // When
        let result = try await runBoxOffice(["movie", String(repeating: "9x", count: 50_000)])
        // Then
        #expect(result.status == 64)
        #expect(result.errors.count < 300)
    }

    @Test func aFailedWriteToStandardOutputExitsWith1() async throws {
        // When the output goes to a full device
        let result = try await runBoxOffice(["daily", "--offline"], standardOutputPath: "/dev/full")
        // Then
        #expect(result.status == 1)
        #expect(result.errors.contains("could not write to standard output"))
    }

    @Test func aFailedWriteToStandardErrorIsNotACrash() async throws {
        // When a usage error cannot even be reported
        let result = try await runBoxOffice(["--bogus"], standardErrorPath: "/dev/full")
        // Then the exit code still says what happened
        #expect(result.status == 64)
    }

    @Test(arguments: [["--json="], ["daily", "--offline="]])
    func aFlagGivenAnEmptyValueIsAUsageErrorToo(arguments: [String]) async throws {
        let result = try await runBoxOffice(arguments)
        #expect(result.status == 64)
        #expect(result.errors.contains("takes no value"))
    }

    @Test func aHugeEnvironmentValueIsNotEchoedWhole() async throws {
        let result = try await runBoxOffice(
            ["daily"],
            environment: ["KOBIS_API_KEY": "kkkk", "KOBIS_BASE_URL": String(repeating: "x", count: 100_000)])
        #expect(result.status == 1)
        #expect(result.errors.count < 300)
    }

    @Test func aKeyWithATrailingNewlineIsTrimmed() async throws {
        // Given a key as `$(cat key.txt)` gives it
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let folder = TemporaryFolder()
        var environment = live(server, cache: folder.url)
        environment["KAKAO_REST_API_KEY"] = "rest-key\n"
        // When
        let result = try await runBoxOffice(["movie", "20261002", "--json"], environment: environment)
        // Then Kakao received the key itself, and the poster came
        #expect(result.status == 0, "\(result.errors)")
        let searches = try await server.requests().filter { $0.path.hasPrefix("/kakao/") }
        #expect(searches.map { $0.headers["authorization"] } == ["KakaoAK rest-key"])
    }

    @Test func aKeyWithALineBreakInsideIsRefusedWithoutShowingIt() async throws {
        let result = try await runBoxOffice(["daily"], environment: ["KOBIS_API_KEY": "abc\nSENTINEL7Q"])
        #expect(result.status == 1)
        #expect(result.errors.contains("KOBIS_API_KEY is not an API key"))
        #expect(!result.errors.contains(Self.sentinel))
    }

    @Test func browseRefusesADumbTerminal() async throws {
        let result = try await runBoxOffice(["browse"], environment: ["TERM": "dumb"])
        #expect(result.status == 1)
        #expect(result.errors.contains("TERM is dumb"))
        #expect(!result.output.contains("\u{1B}"))
    }
}
