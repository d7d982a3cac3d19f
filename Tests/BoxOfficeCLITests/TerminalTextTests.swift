import BoxOffice
import Testing

@testable import BoxOfficeTerminal

@Suite("The terminal: text from outside, colour and layout")
struct TerminalTextTests {
    @Test func controlCharactersAndBidiOverridesAreReplaced() {
        // Given a title as a hostile server would send it
        let title = "광해\u{1B}[2J\u{1B}]0;PWNED\u{07}\u{9B}31m\u{202E}txt.exe\u{7F}"
        // When
        let cleaned = TerminalText.clean(title)
        // Then nothing a terminal acts on is left, and the text is still there
        #expect(!cleaned.unicodeScalars.contains(where: TerminalText.isUnsafe))
        #expect(cleaned.hasPrefix("광해"))
        #expect(cleaned.contains("[2J"))
    }

    @Test func aLineHasNoLineBreaksAndSingleSpaces() {
        #expect(
            TerminalText.line("HTTP 500:\n<html>\r\n  <body>\tdown</body>")
                == "HTTP 500: <html> <body> down</body>")
    }

    @Test func anExcerptIsCutWithAnEllipsis() {
        #expect(
            TerminalText.excerpt(String(repeating: "a", count: 100)) == String(repeating: "a", count: 40)
                + "…")
        #expect(TerminalText.excerpt("short") == "short")
    }

    @Test func c1ControlsAndBidiOverridesInJSONAreWrittenAsEscapes() {
        #expect(
            TerminalText.escapingControls(inJSON: "{\"t\":\"a\u{9B}b\u{202E}\"}")
                == "{\"t\":\"a\\u009Bb\\u202E\"}")
    }

    @Test(arguments: [
        ([:], true), (["NO_COLOR": ""], true), (["NO_COLOR": "1"], false), (["TERM": "dumb"], false),
        (["TERM": "xterm-256color"], true),
    ])
    func colourFollowsNoColorAndTerm(environment: [String: String], allowed: Bool) {
        #expect(Style.allowsColor(environment: environment) == allowed)
    }

    func entries(_ titles: [String]) -> [DailyBoxOfficeEntry] {
        titles.enumerated().map { index, title in
            DailyBoxOfficeEntry(
                rank: index + 1, rankChange: 0, isNew: false, movieCode: "\(index)", title: title,
                openDate: nil,
                audienceCount: 1_234, audienceAccumulated: 56_789, salesAmount: 0, salesAccumulated: 0,
                salesShare: 0, screenCount: 0, showCount: 0)
        }
    }

    @Test func theSelectedRowIsMarkedWithoutColour() {
        // Given no colour
        let screen = Screen(style: Style(isEnabled: false), columns: nil)
        // When
        let lines = Renderers.list(entries(["A", "B"]), screen: screen, selected: 1)
        // Then
        #expect(lines[2].hasPrefix("› "))
        #expect(lines[1].hasPrefix("  "))
    }

    @Test func theSelectedCardHasAHeavyBorder() {
        let screen = Screen(style: Style(isEnabled: false), columns: nil)
        let lines = Renderers.grid(entries(["A", "B"]), screen: screen, selected: 0)
        #expect(lines[0].hasPrefix("┏"))
        #expect(lines[0].contains("┌"))
    }

    @Test(arguments: [30, 40, 60, 80])
    func listRowsFitTheScreenByDisplayWidth(columns: Int) {
        // Given wide Korean titles
        let screen = Screen(style: Style(isEnabled: false), columns: columns)
        // When
        let lines = Renderers.list(entries(["광해, 왕이 된 남자 그리고 아주 긴 제목의 영화", "Station Seven"]), screen: screen)
        // Then
        #expect(lines.allSatisfy { TextWidth.of($0) <= columns }, "\(lines.map(TextWidth.of))")
    }

    @Test func theMostNegativeRankChangeRendersWithoutTrapping() {
        // Given a row whose rankInten a server sent as Int.min
        var entry = entries(["A"])[0]
        entry = DailyBoxOfficeEntry(
            rank: 1, rankChange: .min, isNew: false, movieCode: "1", title: entry.title, openDate: nil,
            audienceCount: 0, audienceAccumulated: 0, salesAmount: 0, salesAccumulated: 0, salesShare: 0,
            screenCount: 0, showCount: 0)
        // When
        let lines = Renderers.list([entry], screen: Screen(style: Style(isEnabled: false), columns: nil))
        // Then the change fits its 6-column cell, and the row its usual width
        #expect(lines[1].contains(" ▼999+ "))
        #expect(TextWidth.of(lines[1]) == TextWidth.of(lines[0]))
    }

    @Test func aLoneEscapeDecodesOnlyOnceMoreBytesCouldNotFollow() {
        // A lone Esc is incomplete to the decoder; the reader's timeout turns it into the Esc key.
        #expect(RawTerminal.decode([0x1B]) == nil)
        #expect(RawTerminal.escapeTimeoutMilliseconds <= 100)
    }
}
