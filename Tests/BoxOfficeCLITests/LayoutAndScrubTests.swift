import BoxOffice
import Foundation
import Testing

@testable import BoxOfficeTerminal

/// Lines fitted to a narrow terminal and a short window, and keys scrubbed wherever text goes.
@Suite("The terminal: narrow, short, and scrubbed")
struct LayoutAndScrubTests {
    static let key = "KOBISKEY0123456789"

    func film(_ code: String, title: String = "서울 탈출") -> MovieSummary {
        MovieSummary(
            movieCode: code, title: title, englishTitle: "Escape from Seoul, the Long Version",
            productionYear: 2026,
            openDate: try? Day(dashed: "2026-10-29"), genres: ["액션", "드라마", "스릴러"],
            directors: ["정민호", "김감독", "이감독"])
    }

    func entry(rank: Int, change: Int = 0) -> DailyBoxOfficeEntry {
        DailyBoxOfficeEntry(
            rank: rank, rankChange: change, isNew: false, movieCode: "\(rank)", title: "영화 \(rank)",
            openDate: nil,
            audienceCount: 1_234, audienceAccumulated: 56_789, salesAmount: 0, salesAccumulated: 0,
            salesShare: 0,
            screenCount: 0, showCount: 0)
    }

    /// `line` without its escape sequences.
    func plain(_ line: String) -> String {
        line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    // MARK: - Search results

    @Test(arguments: [80, 60, 40, 24])
    func aSearchResultCutToTheScreenKeepsItsCode(columns: Int) {
        // Given a coloured screen of `columns`
        let screen = Screen(style: Style(isEnabled: true), columns: columns)
        // When
        let lines = SearchRenderer.results([film("20261002"), film("20261003")], screen: screen, selected: 1)
        // Then every line fits, ends with the film's code, and keeps its styling whole
        for (line, code) in zip(lines, ["20261002", "20261003"]) {
            #expect(TextWidth.of(plain(line)) <= columns, "\(plain(line))")
            #expect(plain(line).hasSuffix(code))
            #expect(line.contains("\u{1B}[1m"))
            // Each style opened (bold title, dim facts) is closed: no sequence was cut in two.
            let sequences = line.components(separatedBy: "\u{1B}[").count - 1
            let resets = line.components(separatedBy: "\u{1B}[0m").count - 1
            #expect(sequences == 2 * resets)
        }
    }

    @Test func aLongNoteWrapsSoItsFailureAndCodeStayOnScreen() {
        // Given the note of a chart shown after a revoked key, in an 80-column window
        let screen = Screen(style: Style(isEnabled: false), columns: 80)
        let note =
            "the chart for 2026-11-20 came from the cache (saved 2026-11-21 10:00 UTC) because KOBIS refused "
            + "the request: KOBIS error 320010: 유효하지않은 키값입니다."
        // When it is laid out for browse
        let lines = Renderers.noteLines(note, screen: screen)
        // Then every line fits, and the failure and its code are on screen
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { TextWidth.of($0) <= 80 })
        #expect(lines.joined(separator: " ").contains("KOBIS error 320010"))
    }

    @Test func aSearchResultCutsTheFactsBeforeTheTitle() {
        let line = SearchRenderer.results(
            [film("20261002")], screen: Screen(style: Style(isEnabled: false), columns: 40))[0]
        #expect(line.hasPrefix("  서울 탈출  "))
        #expect(line.hasSuffix(" · 20261002"))
    }

    // MARK: - Reverse video

    @Test func theSelectedRowIsReversedToItsEndPastTheColouredChange() {
        // Given a coloured list whose selected row has a green arrow
        let screen = Screen(style: Style(isEnabled: true), columns: 80)
        // When
        let row = Renderers.list([entry(rank: 1, change: 3)], screen: screen, selected: 0)[1]
        // Then every reset inside the row turns reverse video back on, and the row ends with a reset
        let parts = row.components(separatedBy: "\u{1B}[0m")
        #expect(parts.count >= 3)
        for part in parts.dropFirst().dropLast() {
            #expect(part.hasPrefix("\u{1B}[7m"), "\(part.debugDescription)")
        }
        #expect(parts.last == "")
    }

    // MARK: - The window's height

    @Test func aShortWindowKeepsTheHeaderTheColumnNamesAndTheFirstRow() {
        // Given a chart of ten in a 10-row window (2 lines above the table, 2 below)
        let screen = Screen(style: Style(isEnabled: false), columns: 100)
        let body = Renderers.list((1...10).map { entry(rank: $0) }, screen: screen, selected: 0)
        // When
        let lines = ScreenFit.lines(
            top: ["Daily box office", ""], body: body, pinned: 1, focus: 1..<2, bottom: ["", "q quit"],
            rows: 10)
        // Then
        #expect(lines.count == 10)
        #expect(lines[0] == "Daily box office")
        #expect(lines[2].contains("Rank"))
        #expect(lines[3].contains("영화 1"))
        #expect(lines.last == "q quit")
    }

    @Test func theSelectionScrollsIntoViewBelowThePinnedColumnNames() {
        let screen = Screen(style: Style(isEnabled: false), columns: 100)
        let body = Renderers.list((1...10).map { entry(rank: $0) }, screen: screen, selected: 9)
        let lines = ScreenFit.lines(
            top: ["T", ""], body: body, pinned: 1, focus: 10..<11, bottom: ["", "q"], rows: 10)
        #expect(lines.count == 10)
        #expect(lines[2].contains("Rank"))
        #expect(lines[7].contains("› "))
        #expect(lines[7].contains("영화 10"))
    }

    @Test func everythingShowsWhenItFitsOrTheHeightIsUnknown() {
        let body = ["a", "b", "c"]
        #expect(
            ScreenFit.lines(top: ["t"], body: body, pinned: 0, focus: nil, bottom: ["z"], rows: nil).count
                == 5)
        #expect(
            ScreenFit.lines(top: ["t"], body: body, pinned: 0, focus: nil, bottom: ["z"], rows: 5).count == 5)
    }

    @Test func aWindowTooShortForTheBodyStillNeverScrolls() {
        let lines = ScreenFit.lines(
            top: ["t1", "t2"], body: ["a", "b"], pinned: 1, focus: 1..<2, bottom: ["z1", "z2"], rows: 3)
        #expect(lines == ["t1", "t2", "z1"])
    }

    // MARK: - Keys

    @Test func aJSONValueEndingInPartOfAKeyIsCutThere() throws {
        // Given a title ending in the first 12 of the key's 18 characters, as a careless server cuts it
        let output = Output(secrets: [Self.key])
        let movie = film("20261002", title: "영화 " + Self.key.prefix(12))
        // When
        let json = try JSONOutput.render(
            JSONOutput.Search(query: "영화", total: 1, movies: [JSONOutput.Found(movie: movie)]),
            scrub: output.scrubbed)
        // Then no six characters of the key remain, and the JSON is valid
        #expect(!json.contains(Self.key.prefix(6)))
        #expect(json.contains("영화 REDACTED"))
        #expect((try? JSONSerialization.jsonObject(with: Data(json.utf8))) != nil)
    }

    @Test func aWarningQuotingPartOfAKeyMidLinePrintsNoneOfIt() {
        // Given a report warning quoting a title that carries 12 of the key's characters
        let line = "영화 \(Self.key.prefix(12)): details unavailable: KOBIS error 320010"
        // When it is made safe to print
        let scrubbed = Output(secrets: [Self.key]).scrubbed(line)
        // Then no six characters of the key remain, and the rest of the line does
        #expect(!scrubbed.contains(Self.key.prefix(6)))
        #expect(scrubbed == "영화 REDACTED: details unavailable: KOBIS error 320010")
    }

    @Test func aKeyInAnotherLetterCaseIsNeverPrinted() {
        // Given a KOBIS fault quoting the key in small letters
        let line = "KOBIS error 320010: key \(Self.key.lowercased()) is not registered"
        // When
        let scrubbed = Output(secrets: [Self.key]).scrubbed(line)
        // Then
        #expect(!scrubbed.lowercased().contains(Self.key.lowercased().prefix(6)))
        #expect(scrubbed == "KOBIS error 320010: key REDACTED is not registered")
    }

    @Test func aMessageLineIsAtMost500CharactersWithItsLabel() {
        let line = Output.line("error: ", String(repeating: "x", count: 600))
        #expect(line.count == Output.longestLine)
        #expect(line.hasPrefix("error: x"))
        #expect(line.hasSuffix("…"))
        #expect(Output.line("error: ", "short") == "error: short")
    }

    // MARK: - The report

    @Test func theReportHeadingKeepsItsDateOnOneLine() throws {
        let page = HTMLReport.render(
            BoxOfficeReport(day: try Day(dashed: "2026-11-21"), films: []), isDemo: true, generated: Date())
        #expect(page.contains("<h1>Daily box office <span class=\"date\">2026-11-21</span></h1>"))
        #expect(page.contains(".date{white-space:nowrap}"))
    }

    @Test func oneScreenIsSingular() {
        #expect(HTMLReport.counted(1, "screen") == "1 screen")
        #expect(HTMLReport.counted(0, "screen") == "0 screens")
        #expect(HTMLReport.counted(1_234, "showing") == "1,234 showings")
    }

    @Test func thePagesFontsNameAHangulFontOfEachPlatform() throws {
        let page = HTMLReport.render(
            BoxOfficeReport(day: try Day(dashed: "2026-11-21"), films: []), isDemo: true, generated: Date())
        for font in ["Apple SD Gothic Neo", "Malgun Gothic", "Noto Sans CJK KR"] {
            #expect(page.contains("\"\(font)\""), "\(font)")
        }
    }

    @Test(arguments: [
        (3, "▲3"), (-2, "▼2"), (0, "-"), (1_000, "▲999+"), (Int.min, "▼999+"), (Int.max, "▲999+"),
    ])
    func aRankChangeTakesAtMostFiveColumns(change: Int, text: String) {
        #expect(Renderers.changeText(change) == text)
    }

    // MARK: - Report destinations

    @Test func reportDestinationsAreAFileAFolderOrStandardOutput() throws {
        let day = try Day(dashed: "2026-11-21")
        #expect(ReportFile.destination(for: "-", day: day) == .standardOutput)
        #expect(
            ReportFile.destination(for: "page.html", day: day) == .file(URL(fileURLWithPath: "page.html")))
        #expect(
            ReportFile.destination(for: "out/", day: day)
                == .file(URL(fileURLWithPath: "out/boxoffice-2026-11-21.html")))
        #expect(
            ReportFile.destination(for: nil, day: day)
                == .file(URL(fileURLWithPath: "boxoffice-2026-11-21.html")))
    }

    @Test func aFileSystemErrorIsTheSystemsWordsNotAnNSErrorDump() {
        let full = NSError(domain: NSCocoaErrorDomain, code: CocoaError.Code.fileWriteOutOfSpace.rawValue)
        #expect(ReportFile.reason(full) == String(cString: strerror(ENOSPC)))
        let posix = NSError(
            domain: NSCocoaErrorDomain, code: 512,
            userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))])
        #expect(ReportFile.reason(posix) == String(cString: strerror(EACCES)))
    }

    // MARK: - Found byte by byte

    @Test func aKeyFollowedByACombiningMarkIsStillScrubbed() {
        // A combining acute after the key makes its last letter another grapheme, which a Character
        // comparison would not match.
        let text = "title " + Self.key + "\u{301} end"
        let scrubbed = Output.scrub(text, secrets: [Self.key])
        #expect(!scrubbed.contains(Self.key.prefix(6)))
        #expect(scrubbed.utf8.starts(with: "title REDACTED\u{301} end".utf8))
    }

    // MARK: - Every drawn line fits the width

    @Test func aStyledLineIsCutToTheWidthWithoutCuttingASequence() {
        let style = Style(isEnabled: true)
        let line = style.red("error: " + String(repeating: "가", count: 50))
        let cut = TextWidth.fitStyled(line, to: 20)
        #expect(TextWidth.of(plain(cut)) <= 20)
        #expect(cut.hasPrefix("\u{1B}[31merror: "))
        #expect(cut.hasSuffix("…\u{1B}[0m"))
        #expect(TextWidth.fitStyled(style.red("short"), to: 20) == style.red("short"))
    }

    @Test func theFocusWinsOverThePinnedLineWhenOnlyOneFits() {
        let lines = ScreenFit.lines(
            top: ["T"], body: ["Rank", "row 1", "row 2"], pinned: 1, focus: 2..<3, bottom: ["q"], rows: 3)
        #expect(lines == ["T", "row 2", "q"])
    }

    // MARK: - Keys in the report

    @Test func aKeyWithAnAmpersandOrEndingATitleNeverReachesThePage() throws {
        // Given keys the page would escape (`&`), and a title ending in the start of one
        let key = "AB&CDEFGH12"
        let output = Output(secrets: [key, Self.key])
        let entries = [
            DailyBoxOfficeEntry(
                rank: 1, rankChange: 0, isNew: false, movieCode: "1", title: "영화 " + key, openDate: nil,
                audienceCount: 1, audienceAccumulated: 1, salesAmount: 0, salesAccumulated: 0, salesShare: 0,
                screenCount: 1, showCount: 1),
            DailyBoxOfficeEntry(
                rank: 2, rankChange: 0, isNew: false, movieCode: "2", title: "영화 " + Self.key.prefix(12),
                openDate: nil, audienceCount: 1, audienceAccumulated: 1, salesAmount: 0, salesAccumulated: 0,
                salesShare: 0, screenCount: 1, showCount: 1),
        ]
        let report = BoxOfficeReport(
            day: try Day(dashed: "2026-11-21"),
            films: entries.map { ReportFilm(entry: $0, details: nil, poster: nil) })
        // When the page is made as `report` makes it
        let page = output.scrubbed(
            HTMLReport.render(
                ReportScrubbing.scrubbed(report, with: output.scrubbed), isDemo: false, generated: Date()))
        // Then neither key shows, escaped or in part
        #expect(!page.contains("AB&amp;CD"))
        #expect(!page.contains(Self.key.prefix(6)))
    }

    @Test func aFileWhereTheFolderShouldBeIsNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "report-\(UUID().uuidString)")
        try Data("a file".utf8).write(to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: ReportFile.Refusal.self) {
            try ReportFile.check(folder.appendingPathComponent("a.html"))
        }
        do {
            try ReportFile.check(folder.appendingPathComponent("a.html"))
        } catch {
            #expect(error.description.hasSuffix("is a file, not a folder"))
        }
    }
}
