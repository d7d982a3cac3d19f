import Foundation
import Testing

@testable import NetworkLayer

/// The one rule every download path asks about its ranges, as values, without a server: which validator
/// `If-Range` may send, and what a `206` is to the file.
@Suite("A download's range rules")
struct RangeRulesTests {
    /// The headers of a `206` carrying `range`, with `etag` when given.
    func partial(_ range: String, etag: String? = nil) -> [String: String] {
        var headers = ["Content-Range": range]
        headers["ETag"] = etag
        return headers
    }

    @Test func aLastModifiedIsAValidatorOnlyWhenItIsASecondOlderThanTheAnswer() {
        // Given answers with only a Last-Modified, dated the same second as the answer, or earlier
        let modified = "Wed, 25 Nov 2026 10:00:00 GMT"
        let sameSecond = ["Last-Modified": modified, "Date": modified]
        let later = ["Last-Modified": modified, "Date": "Wed, 25 Nov 2026 10:00:01 GMT"]
        // When, Then only the earlier one may be sent in If-Range (RFC 9110, 13.1.5), and a weak ETag never
        #expect(RangeRules.strongValidator(in: sameSecond) == nil)
        #expect(RangeRules.strongValidator(in: ["Last-Modified": modified]) == nil)
        #expect(RangeRules.strongValidator(in: later) == modified)
        #expect(RangeRules.strongValidator(in: ["ETag": "W/\"v1\""]) == nil)
        #expect(RangeRules.strongValidator(in: later.merging(["ETag": "W/\"v1\""]) { $1 }) == nil)
        #expect(RangeRules.strongValidator(in: ["ETag": "\"v1\"", "Last-Modified": modified]) == "\"v1\"")
    }

    @Test func aPartialAnswerToNoRangeIsAcceptedOnlyWhenItCarriesTheWholeBody() {
        // Given a request that asked for no range
        let asked = RangeRules.Asked.nothing
        // When, Then
        #expect(RangeRules.verdict(on: partial("bytes 0-99/100"), asked: asked) == .startsFile)
        #expect(RangeRules.verdict(on: partial("bytes 0-49/100"), asked: asked) == .refused)
        #expect(RangeRules.verdict(on: partial("bytes 0-99/*"), asked: asked) == .refused)
        #expect(RangeRules.verdict(on: [:], asked: asked) == .refused)
    }

    @Test func theFirstWindowIsAnyRangeFromByteZero() {
        // Given a request for the first window
        let asked = RangeRules.Asked.bytes(from: 0, validator: nil)
        // When, Then
        #expect(RangeRules.verdict(on: partial("bytes 0-49/100"), asked: asked) == .startsFile)
        #expect(RangeRules.verdict(on: partial("bytes 0-49/*"), asked: asked) == .startsFile)
        #expect(RangeRules.verdict(on: partial("bytes 10-49/100"), asked: asked) == .refused)
    }

    @Test func aResumeContinuesTheFileOnlyFromItsOffsetWithTheSameValidator() {
        // Given a resume from byte 50 of version "v1"
        let asked = RangeRules.Asked.bytes(from: 50, validator: "\"v1\"")
        // When, Then
        #expect(
            RangeRules.verdict(on: partial("bytes 50-99/100", etag: "\"v1\""), asked: asked) == .continuesFile
        )
        #expect(RangeRules.verdict(on: partial("bytes 50-99/100", etag: "\"v2\""), asked: asked) == .refused)
        #expect(RangeRules.verdict(on: partial("bytes 50-99/100"), asked: asked) == .refused)
        #expect(RangeRules.verdict(on: partial("bytes 40-99/100", etag: "\"v1\""), asked: asked) == .refused)
        #expect(RangeRules.verdict(on: partial("bytes 0-99/100", etag: "\"v1\""), asked: asked) == .refused)
    }

    @Test func aResumeWithoutAValidatorNeverContinuesTheFile() {
        // Given a resume from byte 50 whose first answer had no strong validator
        let asked = RangeRules.Asked.bytes(from: 50, validator: nil)
        // When, Then
        #expect(RangeRules.verdict(on: partial("bytes 50-99/100"), asked: asked) == .refused)
        #expect(
            RangeRules.verdict(on: partial("bytes 50-99/100", etag: "W/\"v1\""), asked: asked) == .refused)
    }

    @Test func resumeDataContinuesOnlyTheVersionItWasTakenFrom() {
        // Given resume data taken from version "v1", and some taken from an answer without a validator
        let asked = RangeRules.Asked.resumeData(validator: "\"v1\"")
        let blind = RangeRules.Asked.resumeData(validator: nil)
        // When, Then URLSession keeps the offset; the version decides
        #expect(
            RangeRules.verdict(on: partial("bytes 50-99/100", etag: "\"v1\""), asked: asked) == .continuesFile
        )
        #expect(RangeRules.verdict(on: partial("bytes 50-99/100", etag: "\"v2\""), asked: asked) == .refused)
        #expect(RangeRules.verdict(on: partial("bytes 50-99/100", etag: "\"v1\""), asked: blind) == .refused)
    }
}
