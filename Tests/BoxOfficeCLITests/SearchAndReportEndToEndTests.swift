import Foundation
import TestSupport
import Testing

/// Where a headless Chromium is installed, if anywhere (CI installs Debian's `chromium`).
enum Chromium {
    /// `BOXOFFICE_CHROMIUM` when set (CI sets it whenever it has a browser, and then the test must run),
    /// else the first `chromium`, `chromium-browser` or `google-chrome` on the `PATH`.
    static let required = ProcessInfo.processInfo.environment["BOXOFFICE_CHROMIUM"].flatMap {
        $0.isEmpty ? nil : $0
    }

    static let path: String? = {
        if let required { return required }
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }()

    /// Renders `page` in a window of `width` × `height` CSS pixels to a PNG at `screenshot`; gives up after
    /// 60 seconds.
    static func screenshot(of page: URL, to screenshot: URL, width: Int, height: Int) async throws {
        guard let path else { throw FixtureError(message: "Chromium is not installed") }
        let profile = TemporaryFolder("chromium")  // the browser's profile, removed with it
        try await offThePool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--user-data-dir=" + profile.url.path,
                "--window-size=\(width),\(height)", "--screenshot=\(screenshot.path)", page.absoluteString,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(60)
            while process.isRunning, Date() < deadline { usleep(50_000) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }
}

/// What a screenshot shows, measured by Fixtures/check_screenshot.py.
struct ScreenshotFacts: Decodable {
    let width: Int
    let height: Int
    /// The share of saturated pixels: posters, not the page's greys and text.
    let colorful: Double

    static func of(_ file: URL) async throws -> ScreenshotFacts {
        let data = try await offThePool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "python3", ProjectPaths.fixtures.appendingPathComponent("check_screenshot.py").path,
                file.path,
            ]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return data
        }
        return try JSONDecoder().decode(ScreenshotFacts.self, from: data)
    }
}

/// `boxoffice search` and `boxoffice report`, run as a user would.
@Suite("boxoffice search and report end to end", .serialized)
struct SearchAndReportEndToEndTests {
    struct SearchJSON: Decodable, Equatable {
        struct Movie: Decodable, Equatable {
            let movieCode: String
            let title: String
            let englishTitle: String
            let productionYear: Int?
            let openDate: String?
            let genres: [String]
            let directors: [String]
        }
        let query: String
        let total: Int
        let movies: [Movie]
    }

    func liveEnvironment(_ server: FixtureServer, cache: TemporaryFolder, kobisKey: String = "test-key")
        -> [String: String]
    {
        [
            "KOBIS_API_KEY": kobisKey, "KAKAO_REST_API_KEY": "test-rest-key",
            "KOBIS_BASE_URL": server.baseURL.appendingPathComponent("kobis").absoluteString,
            "KAKAO_BASE_URL": server.baseURL.appendingPathComponent("kakao").absoluteString,
            "BOXOFFICE_CACHE_DIR": cache.url.path,
        ]
    }

    @Test func searchPrintsEachMatchWithItsCode() async throws {
        // When
        let result = try await runBoxOffice(["search", "서울"])
        // Then
        #expect(result.status == 0)
        #expect(result.output.contains("1 film matches \"서울\":"))
        #expect(
            result.output.contains("서울 탈출  Escape from Seoul  2026 · opened 2026-10-29 · 액션 · 정민호 · 20261002")
        )
    }

    @Test func searchJSONFollowsTheContractExactly() async throws {
        // When
        let result = try await runBoxOffice(["search", "서울", "--json"])
        // Then
        #expect(result.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["query", "total", "movies"])
        let movie = try #require((object["movies"] as? [[String: Any]])?.first)
        #expect(
            Set(movie.keys) == [
                "movieCode", "title", "englishTitle", "productionYear", "openDate", "genres", "directors",
            ])
        let search = try JSONDecoder().decode(SearchJSON.self, from: Data(result.output.utf8))
        #expect(
            search
                == SearchJSON(
                    query: "서울", total: 1,
                    movies: [
                        .init(
                            movieCode: "20261002", title: "서울 탈출", englishTitle: "Escape from Seoul",
                            productionYear: 2026, openDate: "2026-10-29", genres: ["액션"], directors: ["정민호"])
                    ]))
    }

    @Test func aFilmWithoutAnOpenDateHasNullInJSON() async throws {
        // When
        let result = try await runBoxOffice(["search", "2001", "--json"])
        // Then
        let search = try JSONDecoder().decode(SearchJSON.self, from: Data(result.output.utf8))
        #expect(search.movies.map(\.openDate) == [nil])
        #expect(result.output.contains(#""openDate" : null"#))
    }

    @Test func noMatchIsSuccessWithAnEmptyList() async throws {
        // When
        let text = try await runBoxOffice(["search", "없는 영화"])
        let json = try await runBoxOffice(["search", "없는 영화", "--json"])
        // Then
        #expect(text.status == 0 && json.status == 0)
        #expect(text.output == "No film matches \"없는 영화\".\n")
        #expect(
            try JSONDecoder().decode(SearchJSON.self, from: Data(json.output.utf8))
                == .init(query: "없는 영화", total: 0, movies: []))
    }

    @Test(arguments: [[], [""], ["   "], ["\t", " "]])
    func anEmptyOrBlankTitleIsAUsageError(title: [String]) async throws {
        // When
        let result = try await runBoxOffice(["search"] + title)
        // Then
        #expect(result.status == 64)
        #expect(result.errors.hasPrefix("error: missing title: boxoffice search <title>"))
        #expect(result.output.isEmpty)
    }

    @Test func liveAgainstALocalServerSearchMatchesTheOfflineRun() async throws {
        // Given the demo data served as live KOBIS on 127.0.0.1
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let cache = TemporaryFolder()
        // When
        let live = try await runBoxOffice(
            ["search", "the", "--json"], environment: liveEnvironment(server, cache: cache))
        let offline = try await runBoxOffice(["search", "the", "--json", "--offline"])
        // Then
        #expect(live.status == 0)
        #expect(live.output == offline.output)
        #expect(
            try await server.requests().contains { $0.path.hasPrefix("/kobis/movie/searchMovieList.json?") })
    }

    @Test func aHostileTitleInSearchResultsCannotDriveTheTerminal() async throws {
        // Given a server whose titles carry escape sequences and the key
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let cache = TemporaryFolder()
        let environment = liveEnvironment(server, cache: cache, kobisKey: "SENTINEL7Q-escape")
        // When
        let text = try await runBoxOffice(["search", "서울"], environment: environment)
        let json = try await runBoxOffice(["search", "서울", "--json"], environment: environment)
        // Then
        for result in [text, json] {
            #expect(result.status == 0)
            #expect(
                !result.output.unicodeScalars.contains {
                    $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x202E
                })
            #expect(!result.output.contains("SENTINEL7Q"))
        }
    }

    @Test func browseSearchesAsTheUserTypesThroughARealPseudoTerminal() async throws {
        // Given the demo data served as live APIs, so the server counts the searches
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        // When a person opens the search, types "Seoul" quickly, edits it, opens a result and goes back
        let transcript = try await offThePool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "python3", ProjectPaths.fixtures.appendingPathComponent("drive_search.py").path,
                ProjectPaths.binary.path, server.baseURL.absoluteString,
            ]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
        // Then every screen showed what it should, and one request was made for the final query
        #expect(transcript.0 == 0, "\(transcript.1)")
        #expect(transcript.1.contains("ok: typing quickly made one request, for the final query"))
    }

    @Test func reportWritesOneSelfContainedPageNamedForTheDayInTheCurrentFolder() async throws {
        // Given
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let cache = TemporaryFolder()
        // When
        let result = try await runBoxOffice(
            ["report", "--date", "2026-11-20"], environment: ["BOXOFFICE_CACHE_DIR": cache.url.path],
            directory: folder.url)
        // Then
        #expect(result.status == 0, "\(result.errors)")
        let file = folder.url.appendingPathComponent("boxoffice-2026-11-20.html")
        #expect(result.output.hasSuffix("boxoffice-2026-11-20.html\n"))
        let html = try String(contentsOf: file, encoding: .utf8)
        #expect(html.components(separatedBy: "<li class=\"film\">").count - 1 == 10)
        #expect(html.components(separatedBy: "url(\"data:image/png;base64,").count - 1 == 10)
        #expect(html.components(separatedBy: "<section class=\"details\"").count - 1 == 10)
        #expect(html.contains("붉은 안개"))
        #expect(!html.contains("https://") && !html.contains("<script"))
    }

    @Test func reportRefusesAPipeInsteadOfHangingOnIt() async throws {
        // Given a FIFO where the report should go
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let fifo = folder.url.appendingPathComponent("report.html")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        // When
        let result = try await runBoxOffice(
            ["report", "--output", fifo.path], environment: ["BOXOFFICE_CACHE_DIR": folder.url.path])
        // Then
        #expect(result.status == 1)
        #expect(result.errors.contains("it is a pipe or socket, not a regular file"))
    }

    @Test func reportIntoAMissingFolderFailsBeforeAnyRequest() async throws {
        // Given a live KOBIS on 127.0.0.1 that counts requests
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let cache = TemporaryFolder()
        // When
        let result = try await runBoxOffice(
            ["report", "--output", cache.url.appendingPathComponent("no/such/folder/r.html").path],
            environment: liveEnvironment(server, cache: cache))
        // Then
        #expect(result.status == 1)
        #expect(result.errors.contains("no/such/folder does not exist"))
        #expect(try await server.requests().isEmpty)
    }

    @Test func aHostileServerCannotInjectMarkupOrLeakTheKeyIntoTheReport() async throws {
        // Given titles carrying markup, escape sequences and the key
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let cache = TemporaryFolder()
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let file = folder.url.appendingPathComponent("report.html")
        // When
        let result = try await runBoxOffice(
            ["report", "--date", "2026-11-20", "--output", file.path],
            environment: liveEnvironment(server, cache: cache, kobisKey: "SENTINEL7Q-escape"))
        // Then
        #expect(result.status == 0, "\(result.errors)")
        let html = try String(contentsOf: file, encoding: .utf8)
        #expect(!html.contains("<script") && !html.contains("<img"))
        #expect(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;")
        )
        #expect(!html.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
        #expect(!html.contains("SENTINEL7Q"))
        #expect(html.contains("REDACTED"))
    }

    @Test(
        .enabled(
            if: Chromium.path != nil, "Chromium is not installed (CI installs it, and then this test runs)"))
    func theReportRendersInAHeadlessBrowserWithItsPostersOnDesktopAndPhone() async throws {
        // Given the report of the latest demo day
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let page = folder.url.appendingPathComponent("report.html")
        if let required = Chromium.required {
            #expect(
                FileManager.default.isExecutableFile(atPath: required),
                "BOXOFFICE_CHROMIUM=\(required) is not a program")
        }
        let made = try await runBoxOffice(
            ["report", "--output", page.path], environment: ["BOXOFFICE_CACHE_DIR": folder.url.path])
        #expect(made.status == 0)
        // Its posters removed: what a page whose images do not load looks like
        let html = try String(contentsOf: page, encoding: .utf8)
        let broken = folder.url.appendingPathComponent("broken.html")
        try html.replacingOccurrences(of: "data:image/png;base64,", with: "data:image/png;base64,AAAA")
            .write(to: broken, atomically: true, encoding: .utf8)
        // When Chromium renders both, as a desktop window and as a phone
        var facts: [String: ScreenshotFacts] = [:]
        for (name, file, width, height) in [
            ("desktop", page, 1000, 1400), ("phone", page, 390, 844), ("broken", broken, 1000, 1400),
        ] {
            let shot = folder.url.appendingPathComponent("\(name).png")
            try await Chromium.screenshot(of: file, to: shot, width: width, height: height)
            facts[name] = try await ScreenshotFacts.of(shot)
        }
        // Then the screenshots have the window's size, and posters fill a good part of them
        #expect(facts["desktop"]?.width == 1000 && facts["desktop"]?.height == 1400)
        #expect(facts["phone"]?.width == 390 && facts["phone"]?.height == 844)
        #expect((facts["desktop"]?.colorful ?? 0) > 0.08)
        #expect((facts["phone"]?.colorful ?? 0) > 0.08)
        // and a page whose images fail to load does not pass for one that shows them
        #expect((facts["broken"]?.colorful ?? 1) < 0.02)
    }

    /// Whether fontconfig knows a font with Korean glyphs (`fc-list :lang=ko`).
    static var hasHangulFont: Bool {
        get async throws {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/fc-list") else { return false }
            let output = try await offThePool { () throws -> Data in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/fc-list")
                process.arguments = [":lang=ko"]
                let pipe = Pipe()
                process.standardOutput = pipe
                try process.run()
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return data
            }
            return !output.isEmpty
        }
    }

    @Test func theBrowserShowsHangulAsLettersNotEmptyBoxes() async throws {
        // Given a browser (CI installs Debian's chromium and fonts-noto-cjk and then requires this test)
        guard Chromium.path != nil else {
            print("skipped: no Chromium to render Hangul with")
            return
        }
        if Chromium.required == nil, !(try await Self.hasHangulFont) {
            print("skipped: no Korean font here (install fonts-noto-cjk); CI installs one")
            return
        }
        // And two pages in the report's fonts: titles in Hangul, and as many characters no font has
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let report = try await runBoxOffice(
            ["report", "--offline", "--output", "-"], environment: ["BOXOFFICE_CACHE_DIR": folder.url.path])
        let style = try #require(report.output.range(of: "<style>")).upperBound
        let font = try #require(report.output[style...].range(of: "font:16px/1.45 "))
        let stack = report.output[font.upperBound...].prefix { $0 != ";" }
        func page(_ text: String) -> String {
            "<!doctype html><meta charset=utf-8><body style='margin:0;font:64px/1 \(stack)'>\(text)</body>"
        }
        let hangul = "검은 바다 붉은 안개 서울 탈출"
        let missing = String(hangul.unicodeScalars.map { $0 == " " ? " " : "\u{E000}" })
        var shots: [Data] = []
        for (name, text) in [("hangul", hangul), ("missing", missing)] {
            let file = folder.url.appendingPathComponent("\(name).html")
            try page(text).write(to: file, atomically: true, encoding: .utf8)
            let shot = folder.url.appendingPathComponent("\(name).png")
            try await Chromium.screenshot(of: file, to: shot, width: 900, height: 120)
            shots.append(try Data(contentsOf: shot))
        }
        // Then the Hangul page does not look like the page of characters no font has (the same boxes)
        #expect(shots[0] != shots[1], "Hangul renders as empty boxes: install a Korean font (fonts-noto-cjk)")
    }
}
