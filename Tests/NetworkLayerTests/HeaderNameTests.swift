import Testing

@testable import NetworkLayer

@Suite("Header field names compare as HTTP compares them")
struct HeaderNameTests {
    @Test func namesDifferingOnlyInTheCaseOfASCIILettersAreTheSame() {
        #expect("Content-Length".isHeaderName("content-length"))
        #expect("X-API-KEY".isHeaderName("x-api-key"))
    }

    @Test func namesOfOtherLengthsOrLettersDiffer() {
        #expect(!"Content-Length".isHeaderName("Content-Lengths"))
        #expect(!"Range".isHeaderName("Rang"))
        #expect(!"Etag".isHeaderName("Etah"))
    }

    @Test func bytesOutsideASCIILettersCompareExactly() {
        // Given names a token never holds: non-ASCII letters, and symbols one bit from a letter
        // Then only ASCII letters are folded
        #expect(!"Ä".isHeaderName("ä"))
        #expect(!"@".isHeaderName("`"))
        #expect(!"[".isHeaderName("{"))
    }

    @Test func aDictionaryFindsAHeaderWhateverTheCaseOfItsName() {
        let headers = ["accept-ranges": "bytes", "Content-Type": "text/plain"]
        #expect(headers.value(named: "Accept-Ranges") == "bytes")
        #expect(headers.value(named: "content-type") == "text/plain")
        #expect(headers.value(named: "ETag") == nil)
    }
}
