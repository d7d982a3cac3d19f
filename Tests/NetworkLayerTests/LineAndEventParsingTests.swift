import Foundation
import Testing

@testable import NetworkLayer

@Suite("Lines and server-sent events, parsed from hostile chunks")
struct LineAndEventParsingTests {
    /// Splits `chunks` into lines the way a stream's iterator does.
    func lines(_ chunks: [String], maximumLength: Int = 1 << 20) throws -> [String] {
        var splitter = LineSplitter(maximumLength: maximumLength)
        var lines: [String] = []
        for chunk in chunks {
            splitter.append(Data(chunk.utf8))
            while let line = try splitter.nextLine() { lines.append(line) }
        }
        if let last = splitter.finish() { lines.append(last) }
        return lines
    }

    @Test func aLongLineArrivingOneByteAtATimeIsScannedOnce() throws {
        // Given a 64 KiB line, then a short one, arriving one byte per chunk
        let input = Array(repeating: UInt8(ascii: "a"), count: 64 << 10) + Array("\nb\n".utf8)
        var splitter = LineSplitter(maximumLength: 1 << 20)
        var lines: [String] = []
        // When
        for byte in input {
            splitter.append(Data([byte]))
            while let line = try splitter.nextLine() { lines.append(line) }
        }
        // Then each byte was looked at once (a rescan per chunk would be 2^31 looks), and both lines came
        #expect(splitter.examinedBytes == input.count)
        #expect(lines.map(\.count) == [64 << 10, 1])
    }

    @Test func aCRLFSplitBetweenTwoChunksEndsOneLineNotTwo() throws {
        #expect(try lines(["one\r", "\ntwo\r\n"]) == ["one", "two"])
    }

    @Test func aLoneCarriageReturnEndsALine() throws {
        #expect(try lines(["one\rtwo\r", "three"]) == ["one", "two", "three"])
    }

    @Test func emptyLinesAreKept() throws {
        #expect(try lines(["a\n\n", "\r\nb"]) == ["a", "", "", "b"])
    }

    @Test func aLineLongerThanTheLimitThrowsInsteadOfGrowing() {
        // Given a line that never ends, arriving in pieces
        #expect(throws: ResponseStreamError.lineTooLong(limit: 8)) {
            _ = try lines(["0123", "4567", "89"], maximumLength: 8)
        }
    }

    @Test func aLongLineInsideOneChunkThrowsToo() {
        #expect(throws: ResponseStreamError.lineTooLong(limit: 4)) {
            _ = try lines(["0123456789\nok\n"], maximumLength: 4)
        }
    }

    @Test func invalidUTF8BecomesReplacementCharacters() throws {
        var splitter = LineSplitter(maximumLength: 100)
        splitter.append(Data([0x61, 0xFF, 0x62, 0x0A]))
        #expect(try splitter.nextLine() == "a\u{FFFD}b")
    }

    /// Parses `lines` as an event stream.
    func events(_ lines: [String], maximumLength: Int = 1 << 20) throws -> [ServerSentEvent] {
        var parser = EventParser(maximumLength: maximumLength)
        return try lines.compactMap { try parser.consume($0) }
    }

    @Test func aRetryThatIsNotAllDigitsIsIgnored() throws {
        let parsed = try events(["retry: 1e3", "retry: -5", "retry: 99999999999999999999999", "data: x", ""])
        #expect(parsed == [ServerSentEvent(data: "x")])
    }

    @Test func anIDContainingNULIsIgnoredAndTheLastOneKept() throws {
        let parsed = try events(["id: 1", "data: a", "", "id: 2\u{0}", "data: b", ""])
        #expect(parsed.map(\.id) == ["1", "1"])
    }

    @Test func eventDataLargerThanTheLimitThrows() {
        #expect(throws: ResponseStreamError.lineTooLong(limit: 10)) {
            _ = try events(["data: 123456", "data: 123456", ""], maximumLength: 10)
        }
    }

    @Test func aFieldWithoutAColonHasAnEmptyValue() throws {
        #expect(try events(["data", "data", ""]) == [ServerSentEvent(data: "\n")])
    }

    @Test func aCombiningMarkAfterTheColonIsPartOfTheValue() throws {
        // Given a combining acute right after `data:`, which would join the colon in one Character
        let parsed = try events(["data:\u{301}x", ""])
        // Then the HTML standard's parse, on code points: the field is `data`, the value the rest
        #expect(parsed == [ServerSentEvent(data: "\u{301}x")])
    }

    @Test func onlyASpaceRightAfterTheColonIsDropped() throws {
        // Given a space followed by a combining mark, which would form one Character
        let parsed = try events(["data: \u{301}x", ""])
        // Then the space goes and the mark stays
        #expect(parsed.first?.data.unicodeScalars.map(\.value) == [0x301, 0x78])
    }

    @Test func aCombiningMarkAfterAFieldNameMakesAnotherField() throws {
        // Given `data` followed by a combining mark before the colon: a field named otherwise
        let parsed = try events(["data\u{301}: x", "data: y", ""])
        // Then only the real data line counts
        #expect(parsed == [ServerSentEvent(data: "y")])
    }

    @Test func aByteOrderMarkFollowedByACombiningMarkIsStillDropped() throws {
        let parsed = try events(["\u{FEFF}data: a", ""])
        #expect(parsed == [ServerSentEvent(data: "a")])
        let comment = try events(["\u{FEFF}:\u{301} comment", "data: b", ""])
        #expect(comment == [ServerSentEvent(data: "b")])
    }
}
