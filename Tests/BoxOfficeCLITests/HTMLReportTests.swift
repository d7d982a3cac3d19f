import BoxOffice
import Foundation
import Testing

@testable import BoxOfficeTerminal

@Suite("The HTML report page")
struct HTMLReportTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])

    func film(_ title: String, code: String = "20261001", poster: Data? = png, details: Bool = true)
        -> ReportFilm
    {
        let entry = DailyBoxOfficeEntry(
            rank: 1, rankChange: -2, isNew: false, movieCode: code, title: title, openDate: nil,
            audienceCount: 147_184, audienceAccumulated: 6_052_885, salesAmount: 1, salesAccumulated: 1,
            salesShare: 1, screenCount: 1_330, showCount: 6_009)
        let movie = MovieDetails(
            movieCode: code, title: title, englishTitle: "Black Sea", openDate: nil, runtimeMinutes: 112,
            productionYear: 2026, genres: ["스릴러"], directors: ["윤지후"], actors: [], nations: [],
            watchGrade: nil, companies: [])
        let image = poster.map {
            Poster(url: URL(fileURLWithPath: "/p.png"), file: nil, imageData: $0, source: .network)
        }
        return ReportFilm(entry: entry, details: details ? movie : nil, poster: image)
    }

    func page(_ films: [ReportFilm]) -> String {
        HTMLReport.render(
            BoxOfficeReport(day: Self.day, films: films), isDemo: true,
            generated: Date(timeIntervalSince1970: 0))
    }

    static let day = (try? Day(dashed: "2026-11-21")) ?? { fatalError("a valid test date") }()

    @Test func theFooterSaysTheChartCameFromTheCacheAndWhenItWasSaved() {
        // Given a report whose chart and one film's details came from the cache
        let saved = Date(timeIntervalSince1970: 1_795_000_000)
        let report = BoxOfficeReport(
            day: Self.day, films: [film("검은 바다", details: true)], chartOrigin: .cache(savedAt: saved))
        let cachedDetails = ReportFilm(
            entry: report.films[0].entry,
            details: report.films[0].details.map {
                MovieDetails(
                    movieCode: $0.movieCode, title: $0.title, englishTitle: $0.englishTitle, openDate: nil,
                    runtimeMinutes: nil, productionYear: nil, genres: [], directors: [], actors: [],
                    nations: [],
                    watchGrade: nil, companies: [], origin: .cache(savedAt: saved))
            }, poster: nil)
        // When
        let html = HTMLReport.render(
            BoxOfficeReport(day: Self.day, films: [cachedDetails], chartOrigin: report.chartOrigin),
            isDemo: false, generated: Date(timeIntervalSince1970: 1_795_100_000))
        // Then the footer says where each came from, and when
        #expect(html.contains("The chart came from the cache, saved 2026-11-18 11:06 UTC."))
        #expect(html.contains("The details of 1 of 1 film came from the cache, saved 2026-11-18 11:06 UTC."))
    }

    @Test func theFooterNamesTheFailureACachedChartStoodInFor() {
        // Given a report whose chart came from the cache because KOBIS refused the key
        let saved = Date(timeIntervalSince1970: 1_795_000_000)
        let refused = "KOBIS refused the request: KOBIS error 320010"
        let report = BoxOfficeReport(
            day: Self.day, films: [film("검은 바다")],
            chartOrigin: .cacheAfterFailure(savedAt: saved, failure: refused))
        // When
        let html = HTMLReport.render(
            report, isDemo: false, generated: Date(timeIntervalSince1970: 1_795_100_000))
        // Then the footer says why, not only when
        #expect(
            html.contains("The chart came from the cache, saved 2026-11-18 11:06 UTC, because \(refused)."))
    }

    @Test func aFailureTheCacheStoodInForIsScrubbedBeforeThePageIsMade() {
        // Given a chart the cache stood in for, whose failure text carries a key
        let report = BoxOfficeReport(
            day: Self.day, films: [film("검은 바다")],
            chartOrigin: .cacheAfterFailure(savedAt: Date(), failure: "KOBIS refused: bad key SECRETKEY1"))
        // When it is scrubbed as the report command does
        let scrubbed = ReportScrubbing.scrubbed(report) {
            $0.replacingOccurrences(of: "SECRETKEY1", with: "REDACTED")
        }
        // Then the failure is scrubbed like every other string from outside
        guard case .cacheAfterFailure(_, let failure) = scrubbed.chartOrigin else {
            Issue.record("expected the cache after a failure")
            return
        }
        #expect(failure == "KOBIS refused: bad key REDACTED")
    }

    @Test func theFooterSaysAFreshChartWasFetchedWhenThePageWasMade() {
        let html = page([film("검은 바다")])
        #expect(html.contains("The chart and the details were read when the page was made."))
    }

    @Test func aTitleCannotInjectMarkupScriptsOrAttributes() {
        // Given a title from a hostile server
        let hostile = #"<script>alert(1)</script>"><img src=x onerror=alert(2)>'&"#
        // When
        let html = page([film(hostile)])
        // Then it appears only escaped
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img src=x"))
        #expect(
            html.contains(
                "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;&#39;&amp;")
        )
    }

    @Test func controlCharactersAndBidiOverridesFromTheAPIsAreReplaced() {
        // When
        let html = page([film("검은\u{1B}[2J바다\u{202E}\u{0}")])
        // Then
        #expect(!html.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E || $0.value == 0 })
        #expect(html.contains("검은\u{FFFD}[2J바다\u{FFFD}\u{FFFD}"))
    }

    @Test func thePageLoadsNothingFromOutsideAndRunsNoScript() {
        // When
        let html = page([film("검은 바다")])
        // Then
        #expect(html.contains(#"content="default-src 'none'; img-src data:; style-src 'unsafe-inline'""#))
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.contains("http://") && !html.contains("https://"))
        #expect(!html.contains("<link"))
    }

    @Test func eachPosterIsEmbeddedOnceAsADataURLOfItsOwnType() {
        // When
        let html = page([film("검은 바다"), film("서울 탈출")])
        // Then
        #expect(
            html.contains(
                #".p0{background-image:url("data:image/png;base64,\#(Self.png.base64EncodedString())")}"#))
        #expect(html.components(separatedBy: ";base64,").count - 1 == 2)
        #expect(html.contains(#"<div class="poster p0" role="img" aria-label="Poster of 검은 바다"></div>"#))
        #expect(
            html.contains(#"<div class="poster-small p1" role="img" aria-label="Poster of 서울 탈출"></div>"#))
    }

    @Test func aPosterOverTheEmbeddingLimitShowsThePlaceholder() {
        // When
        let big = Self.png + Data(count: HTMLReport.maximumEmbeddedBytes)
        let html = page([film("검은 바다", poster: big)])
        // Then
        #expect(!html.contains(";base64,"))
        #expect(html.contains(#"aria-label="No poster""#))
    }

    @Test func bytesThatAreNotAnImageAreNotEmbedded() {
        // When
        let html = page([film("검은 바다", poster: Data("<svg onload=alert(1)>".utf8))])
        // Then
        #expect(!html.contains(";base64,"))
        #expect(html.contains(#"aria-label="No poster""#))
    }

    @Test func eachFilmHasACardLinkingToItsDetailsSectionEvenWhenCodesRepeat() {
        // When
        let html = page([film("검은 바다", code: "1"), film("서울 탈출", code: "1", details: false)])
        // Then
        #expect(html.contains(##"<a href="#film-1">"##) && html.contains(#"id="film-1""#))
        #expect(html.contains(##"<a href="#film-2">"##) && html.contains(#"id="film-2""#))
        #expect(html.contains("Details unavailable."))
        #expect(html.contains("147,184 today · 6,052,885 in all"))
        #expect(html.contains("▼2"))
    }

    @Test func itIsReadableOnAPhone() {
        let html = page([film("검은 바다")])
        #expect(html.contains(#"<meta name="viewport" content="width=device-width, initial-scale=1">"#))
        #expect(html.contains("@media (max-width:520px)"))
    }
}

@Suite("Inline images in the terminal")
struct InlineImageTests {
    @Test(arguments: [
        (["TERM": "xterm-kitty"], InlineImage.kitty),
        (["KITTY_WINDOW_ID": "1", "TERM": "xterm-256color"], .kitty),
        (["TERM_PROGRAM": "ghostty"], .kitty),
        (["TERM_PROGRAM": "iTerm.app"], .iTerm2),
        (["LC_TERMINAL": "iTerm2"], .iTerm2),
        (["TERM_PROGRAM": "WezTerm"], .iTerm2),
    ])
    func theProtocolIsDetectedFromTheEnvironment(environment: [String: String], expected: InlineImage) {
        #expect(InlineImage.detect(environment: environment, isTerminal: true) == expected)
    }

    @Test(arguments: [
        ["TERM": "xterm-256color"],
        ["TERM_PROGRAM": "Apple_Terminal"],
        ["TERM_PROGRAM": "iTerm.app", "TMUX": "/tmp/tmux-0/default,1,0"],
        ["TERM": "screen-256color", "TERM_PROGRAM": "iTerm.app"],
        ["TERM": "dumb", "TERM_PROGRAM": "iTerm.app"],
    ])
    func noImageIsSentToOtherTerminalsOrThroughMultiplexers(environment: [String: String]) {
        #expect(InlineImage.detect(environment: environment, isTerminal: true) == nil)
    }

    @Test func noImageIsSentWhenStandardOutputIsNotATerminal() {
        #expect(InlineImage.detect(environment: ["TERM_PROGRAM": "iTerm.app"], isTerminal: false) == nil)
    }

    @Test func iTerm2GetsTheWholeFileInOneSequence() throws {
        // When
        let sequence = try #require(InlineImage.iTerm2.sequence(for: HTMLReportTests.png, columns: 24))
        // Then
        let encoded = HTMLReportTests.png.base64EncodedString()
        #expect(
            sequence == "\u{1B}]1337;File=inline=1;size=12;width=24;preserveAspectRatio=1:\(encoded)\u{07}")
    }

    @Test func kittyGetsAPNGInChunksOfAtMost4096Bytes() throws {
        // Given a PNG whose base64 is 3 chunks long
        let image = HTMLReportTests.png + Data(repeating: 7, count: 7_000)
        // When
        let sequence = try #require(InlineImage.kitty.sequence(for: image, columns: 24))
        // Then
        let parts = sequence.components(separatedBy: "\u{1B}\\").filter { !$0.isEmpty }
        #expect(parts.count == 3)
        #expect(parts[0].hasPrefix("\u{1B}_Ga=T,f=100,q=2,c=24,m=1;"))
        #expect(parts[1].hasPrefix("\u{1B}_Gm=1;"))
        #expect(parts[2].hasPrefix("\u{1B}_Gm=0;"))
        let payload = parts.map { String($0.split(separator: ";", maxSplits: 1).last ?? "") }
        #expect(payload.allSatisfy { $0.count <= 4096 })
        #expect(Data(base64Encoded: payload.joined()) == image)
    }

    @Test func kittyIsNotSentAJPEG() {
        #expect(InlineImage.kitty.sequence(for: Data([0xFF, 0xD8, 0xFF, 0xE0]), columns: 24) == nil)
    }
}

/// Every `--json` answer says where it came from, stably: the source, when it was saved, and why the
/// cache stood in.
@Suite("--json: where each answer came from")
struct JSONOriginTests {
    func json(_ origin: DataOrigin, isDemo: Bool = false) throws -> [String: Any] {
        let text = try JSONOutput.render(JSONOutput.Origin(origin: origin, isDemo: isDemo), scrub: { $0 })
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func aChartShownAfterARevokedKeyNamesTheRefusalsKindCodeAndSaveTime() throws {
        // Given a chart the cache stood in for after KOBIS refused the key
        let saved = Date(timeIntervalSince1970: 1_795_000_000)
        let origin = DataOrigin.cacheAfterFailure(
            savedAt: saved, failure: "KOBIS refused the request: KOBIS error 320010: 유효하지않은 키값입니다.")
        // When it is written as JSON
        let object = try json(origin)
        // Then it says so, with the failure's kind and code
        #expect(object["source"] as? String == "cacheAfterFailure")
        #expect(object["savedAt"] as? String == "2026-11-18T11:06:40Z")
        let failure = try #require(object["failure"] as? [String: Any])
        #expect(failure["kind"] as? String == "refused")
        #expect(failure["code"] as? String == "320010")
    }

    @Test(arguments: [
        (DataOrigin.network, false, "network"),
        (.cache(savedAt: Date(timeIntervalSince1970: 0)), false, "cache"),
        (.network, true, "demo"),
    ])
    func eachSourceIsNamed(origin: DataOrigin, isDemo: Bool, source: String) throws {
        #expect(try json(origin, isDemo: isDemo)["source"] as? String == source)
    }

    @Test func aServerFailureIsNamedByItsStatus() throws {
        let object = try json(
            .cacheAfterFailure(savedAt: Date(), failure: "KOBIS failed: HTTP 503 from https://kobis"))
        let failure = try #require(object["failure"] as? [String: Any])
        #expect(failure["kind"] as? String == "failed")
        #expect(failure["code"] as? String == "503")
    }
}
