import BoxOffice
import Testing

@testable import BoxOfficeTerminal

@Suite("The command line")
struct ArgumentsTests {
    @Test func noArgumentsMeansTheDailyChartForTheDefaultDay() throws {
        #expect(
            try Arguments.parse([])
                == Invocation(command: .daily(date: nil, mode: .list, json: false), offline: false))
    }

    @Test func dailyTakesADateAModeAndTheOfflineFlagInAnyOrder() throws {
        // When
        let invocation = try Arguments.parse(["--offline", "daily", "--mode=grid", "--date", "2026-11-20"])
        // Then
        #expect(invocation.command == .daily(date: try Day(dashed: "2026-11-20"), mode: .grid, json: false))
        #expect(invocation.offline)
    }

    @Test func helpForACommandIsHelpNotAUsageError() throws {
        #expect(try Arguments.parse(["help", "movie"]).command == .help)
        #expect(try Arguments.parse(["movie", "--help"]).command == .help)
        #expect(throws: UsageError.self) { try Arguments.parse(["help", "nonsense"]) }
    }

    @Test func versionIsItsOwnCommand() throws {
        #expect(try Arguments.parse(["--version"]).command == .version)
    }

    @Test func dailyTakesRefreshAndNoOtherCommandDoes() throws {
        #expect(try Arguments.parse(["daily", "--refresh"]).refresh)
        #expect(try !Arguments.parse(["daily"]).refresh)
        #expect(throws: UsageError.self) { try Arguments.parse(["movie", "20261001", "--refresh"]) }
    }

    @Test func theHelpNamesTheCacheFolderTheWayPastItAndTheInterruptedExitCode() {
        let help = Arguments.helpText()
        #expect(help.contains("BOXOFFICE_CACHE_DIR"))
        #expect(help.contains("--refresh"))
        #expect(help.contains("130"))
        #expect(help.contains("--version"))
    }

    @Test func dailyTakesJSONBeforeItsName() throws {
        #expect(
            try Arguments.parse(["--json", "daily", "--date", "2026-11-20"]).command
                == .daily(date: try Day(dashed: "2026-11-20"), mode: .list, json: true))
    }

    @Test func helpIsACommandToo() throws {
        #expect(try Arguments.parse(["help"]).command == .help)
    }

    @Test func doubleDashEndsTheOptionsSoATitleMayStartWithADash() throws {
        // When a title that looks like an option follows `--`
        let invocation = try Arguments.parse(["search", "--json", "--", "-10", "--offline"])
        // Then it is the title, and the option after `--` is a word of it
        #expect(invocation.command == .search(title: "-10 --offline", json: true))
        #expect(!invocation.offline)
    }

    @Test func helpAfterDoubleDashIsAWordOfTheTitle() throws {
        #expect(try Arguments.parse(["search", "--", "-h"]).command == .search(title: "-h", json: false))
    }

    @Test func aDashAloneIsTheReportsStandardOutput() throws {
        #expect(
            try Arguments.parse(["report", "--output", "-"]).command == .report(date: nil, output: "-"))
    }

    @Test func movieTakesItsCode() throws {
        #expect(
            try Arguments.parse(["movie", "20124079", "--json"]).command
                == .movie(code: "20124079", json: true))
    }

    @Test func searchJoinsItsWordsIntoOneTrimmedTitle() throws {
        #expect(
            try Arguments.parse(["search", " 서울", "탈출 ", "--json"]).command
                == .search(title: "서울 탈출", json: true))
    }

    @Test func reportTakesADateAndAnOutputFile() throws {
        #expect(
            try Arguments.parse(["report", "--output=page.html", "--date", "2026-11-20"]).command
                == .report(date: try Day(dashed: "2026-11-20"), output: "page.html"))
        #expect(try Arguments.parse(["report"]).command == .report(date: nil, output: nil))
    }

    @Test func helpWinsOverEverythingElse() throws {
        #expect(try Arguments.parse(["daily", "--bogus", "-h"]).command == .help)
        #expect(try Arguments.parse(["--help"]).command == .help)
    }

    @Test(arguments: [
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["daily", "--date", "2026-02-30"], "--date 2026-02-30 is not a real date"),
        (["daily", "--date"], "--date needs a value"),
        (["daily", "--mode", "table"], "--mode must be list or grid, not \"table\""),
        (["movie"], "missing movie code: boxoffice movie <movieCode>"),
        (["movie", "../etc"], "\"../etc\" is not a KOBIS movie code (8 digits, such as 20124079)"),
        (["movie", "1"], "\"1\" is not a KOBIS movie code (8 digits, such as 20124079)"),
        (["movie", "２０１２４０７９"], "\"２０１２４０７９\" is not a KOBIS movie code (8 digits, such as 20124079)"),
        (
            ["daily", "--date", " 2026-11-20"],
            "--date has spaces around its value (\" 2026-11-20\"); give the value alone"
        ),
        (
            ["daily", "--mode", "grid "],
            "--mode has spaces around its value (\"grid \"); give the value alone"
        ),
        (["daily", "--date", "2026-11-20", "--date=2026-11-21"], "--date is given twice"),
        (["daily", "--json", "--json"], "--json is given twice"),
        (["report", "--output", "a.html", "--output", "b.html"], "--output is given twice"),
        (
            ["daily", "--json", "--mode", "grid"],
            "--mode does not apply to --json output (it lays out the table)"
        ),
        (["help", "nonsense"], "unexpected argument \"nonsense\""),
        (["movie", "20124079", "--mode", "grid"], "--mode does not apply to 'movie'"),
        (["browse", "--json"], "--json does not apply to 'browse'"),
        (["daily", "--verbose"], "unknown option --verbose"),
        (["search"], "missing title: boxoffice search <title>"),
        (["search", "\u{1B}[2J"], "the title \"\u{FFFD}[2J\" contains control characters"),
        (["search", String(repeating: "가", count: 101)], "the title is longer than 100 characters"),
        (["search", "a", "--date", "2026-11-20"], "--date does not apply to 'search'"),
        (["report", "--json"], "--json does not apply to 'report'"),
        (["report", "--output"], "--output needs a value"),
        (["report", "--output="], "--output needs a file path without control characters"),
        (["daily", "--output", "x.html"], "--output does not apply to 'daily'"),
    ])
    func usageErrorsSayWhatIsWrong(arguments: [String], message: String) {
        #expect(throws: UsageError.self) { try Arguments.parse(arguments) }
        #expect((try? Arguments.parse(arguments)) == nil)
        do {
            _ = try Arguments.parse(arguments)
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func helpSaysTheCacheFolderHoldsChartsAndDetailsToo() {
        // When
        let line = Arguments.helpText().split(separator: "\n").first { $0.contains("BOXOFFICE_CACHE_DIR") }
        // Then
        #expect(line?.contains("posters, charts and details") == true, "\(line ?? "")")
    }

    @Test func helpNamesEveryCommandOptionAndVariable() {
        // When
        let help = Arguments.helpText()
        // Then
        for word in [
            "daily", "movie", "search", "report", "browse", "--output", "--date", "--mode", "--json",
            "--offline", "--help", "-h",
            "KOBIS_API_KEY",
            "KAKAO_REST_API_KEY", "KOBIS_BASE_URL", "KAKAO_BASE_URL", "BOXOFFICE_CACHE_DIR", "NO_COLOR",
        ] {
            #expect(help.contains(word), "help does not mention \(word)")
        }
    }
}

@Suite("Terminal text")
struct TextWidthTests {
    @Test func hangulAndCJKTakeTwoColumnsAndCombiningMarksNone() {
        #expect(TextWidth.of("abc") == 3)
        #expect(TextWidth.of("검은 바다") == 9)
        #expect(TextWidth.of("漢字") == 4)
        #expect(TextWidth.of("e\u{0301}") == 1)
        #expect(TextWidth.of("🎬") == 2)
    }

    @Test func decomposedHangulTakesTheColumnsItsComposedFormDoes() {
        // Given a title decomposed into jamo (NFD), as some servers and file systems send it
        let title = "검은 바다"
        let decomposed = title.decomposedStringWithCanonicalMapping
        #expect(decomposed.unicodeScalars.count > title.unicodeScalars.count)
        // When, Then it takes the columns the composed title does, as terminals draw it
        #expect(TextWidth.of(decomposed) == TextWidth.of(title))
    }

    @Test(arguments: ["🚀", "🟠", "🪐", "🫠", "⚡", "🇰🇷", "👍🏽", "👨\u{200D}👩\u{200D}👧", "❤\u{FE0F}"])
    func emojiTakeTwoColumnsAsTerminalsDrawThem(emoji: String) {
        #expect(TextWidth.of(emoji) == 2)
    }

    @Test func aLoneRegionalIndicatorTakesTwoColumns() {
        #expect(TextWidth.of("\u{1F1F0}") == 2)
    }

    @Test func aStyledLineIsCutBetweenCharactersNeverInsideAFlag() {
        // Given a styled line of flags wider than the room
        let line = "\u{1B}[1m" + String(repeating: "🇰🇷", count: 10) + "\u{1B}[0m"
        // When it is cut to 6 columns
        let cut = TextWidth.fitStyled(line, to: 6)
        // Then it holds whole flags only, and fits
        let visible = cut.replacingOccurrences(of: "\u{1B}[1m", with: "").replacingOccurrences(
            of: "\u{1B}[0m", with: "")
        #expect(visible == "🇰🇷🇰🇷…")
        #expect(TextWidth.of(visible) <= 6)
    }

    @Test func anEmojiTitleIsPaddedByTheColumnsATerminalDraws() {
        // Given titles of 10, 9 and 15 columns as a terminal draws them
        let titles = ["🚀 우주 🪐", "🫠🫠 웃음", "🇰🇷 한국 영화 🇰🇷"]
        // When each is padded to 20 columns
        let padding = titles.map {
            TextWidth.pad($0, to: 20).count(where: { $0 == " " }) - $0.count(where: { $0 == " " })
        }
        // Then the spaces added make up the rest of the 20
        #expect(padding == [10, 11, 5])
    }

    @Test func paddingAlignsMixedScriptsToTheSameColumn() {
        // When
        let rows = ["검은 바다", "Wonka", "2001: 다시 보는 고전"].map { TextWidth.pad($0, to: 16) + "|" }
        // Then
        #expect(rows.map { TextWidth.of($0) } == [17, 17, 17])
        #expect(rows[2].hasSuffix("…|"))
    }

    @Test func theListTableAlignsKoreanTitles() {
        // Given two titles of different widths
        let entries = [("검은 바다", 1), ("Station Seven", 2)].map { title, rank in
            DailyBoxOfficeEntry(
                rank: rank, rankChange: 0, isNew: false, movieCode: "\(rank)", title: title, openDate: nil,
                audienceCount: 1_234, audienceAccumulated: 56_789, salesAmount: 0, salesAccumulated: 0,
                salesShare: 0,
                screenCount: 0, showCount: 0)
        }
        // When
        let lines = Renderers.list(entries, screen: Screen(style: Style(isEnabled: false), columns: nil))
        // Then every row ends at the same column
        #expect(Set(lines.map { TextWidth.of($0) }).count == 1)
        #expect(lines[1].contains("1,234"))
    }

    @Test func keysDecodeFromTerminalBytes() {
        #expect(RawTerminal.decode([0x1B, 0x5B, 0x41])?.0 == .up)
        #expect(RawTerminal.decode([0x1B, 0x5B, 0x44])?.0 == .left)
        #expect(RawTerminal.decode([0x1B])?.0 == nil)
        #expect(RawTerminal.decode([0x0D])?.0 == .enter)
        #expect(RawTerminal.decode([0x03])?.0 == .interrupt)
        #expect(RawTerminal.decode(Array("g".utf8))?.0 == .character("g"))
        #expect(RawTerminal.decode([0x7F])?.0 == .backspace)
    }

    @Test func aLongerEscapeSequenceIsOneIgnoredKeyNotEscapeFollowedByText() {
        // Given Delete (ESC [ 3 ~), Ctrl-→ (ESC [ 1 ; 5 C) and F5 (ESC [ 1 5 ~)
        for bytes: [UInt8] in [
            [0x1B, 0x5B, 0x33, 0x7E], [0x1B, 0x5B, 0x31, 0x3B, 0x35, 0x43], [0x1B, 0x5B, 0x31, 0x35, 0x7E],
        ] {
            // When / Then
            let decoded = RawTerminal.decode(bytes)
            #expect(decoded?.0 == .ignored)
            #expect(decoded?.1 == bytes.count)
            #expect(RawTerminal.decode(Array(bytes.dropLast()))?.0 == nil)
        }
    }
}
