import BoxOffice
import Foundation
import Testing

/// The one rule for finding the run's keys in text: whole in any letter case, or six bytes of one that
/// hold a letter, anywhere in the text.
@Suite("KeyFragments: a key found whole or in part, anywhere")
struct KeyFragmentsTests {
    static let key = "KOBISKEY0123456789"
    let fragments = KeyFragments([Self.key])

    @Test func aFragmentInTheMiddleOfALineIsRedactedAndTheLineGoesOn() {
        // Given a warning quoting a title that carries 12 of the key's 18 characters, mid-line
        let line = "영화 \(Self.key.prefix(12)): details unavailable"
        // When
        let redacted = fragments.redacting(line)
        // Then the fragment is gone and the rest of the line stays
        #expect(redacted == "영화 REDACTED: details unavailable")
    }

    @Test func aFragmentFromTheMiddleOfAKeyIsFound() {
        // Given six characters from inside the key, holding a letter
        let text = "code EY0123 end"
        // Then
        #expect(fragments.occur(in: text))
        #expect(fragments.redacting(text) == "code REDACTED end")
    }

    @Test func aKeyInAnotherLetterCaseIsRedactedWhole() {
        // Given the key in small letters
        let text = "title " + Self.key.lowercased() + " end"
        // Then
        #expect(fragments.redacting(text) == "title REDACTED end")
    }

    @Test func fiveCharactersOfAKeyAreNotAFragment() {
        #expect(!fragments.occur(in: "see KOBIS here"))
    }

    @Test func digitsAloneFromInsideAKeyAreLeftAlone() {
        // Given a film code made of digits that also sit inside the key
        let text = "film 01234567"
        // Then it is not taken for the key
        #expect(!fragments.occur(in: text))
    }

    @Test func aShortKeyIsFoundWholeInAnyCase() {
        let short = KeyFragments(["abcd"])
        #expect(short.redacting("x ABCD y abcd") == "x REDACTED y REDACTED")
        #expect(!short.occur(in: "abc"))
    }

    @Test func aKeyOfDigitsAloneIsStillFoundWhole() {
        let digits = KeyFragments(["12345678"])
        #expect(digits.redacting("key=12345678&x=1") == "key=REDACTED&x=1")
    }

    @Test func aKeyFollowedByACombiningMarkIsStillFound() {
        let text = "title " + Self.key + "\u{301} end"
        #expect(fragments.redacting(text).utf8.starts(with: "title REDACTED\u{301} end".utf8))
    }

    @Test func everyRangeMarkedIsWhatANaiveSearchMarks() {
        // A reference: mark every whole key and every lettered six-byte window, by brute force.
        func reference(_ text: [UInt8], _ key: [UInt8]) -> Set<Int> {
            var marked: Set<Int> = []
            let lower = { (bytes: [UInt8]) in bytes.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 } }
            let (text, key) = (lower(text), lower(key))
            for start in text.indices {
                if text[start...].starts(with: key) { marked.formUnion(start..<(start + key.count)) }
                guard start + 6 <= text.count else { continue }
                let window = Array(text[start..<(start + 6)])
                let inKey = (0...max(0, key.count - 6)).contains {
                    key.count >= 6 && Array(key[$0..<($0 + 6)]) == window
                }
                if inKey, window.contains(where: { (0x61...0x7A).contains($0) }) {
                    marked.formUnion(start..<(start + 6))
                }
            }
            return marked
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 {
            let key = String(
                (0..<Int.random(in: 4...10, using: &generator)).map { _ in
                    "aB1".randomElement(using: &generator) ?? "a"
                })
            let text = String(
                (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                    "abAB12".randomElement(using: &generator) ?? "a"
                })
            let found = KeyFragments([key]).ranges(in: Array(text.utf8))
            let marked = Set(found.flatMap { Array($0) })
            #expect(marked == reference(Array(text.utf8), Array(key.utf8)), "\(key) \(text)")
        }
    }
}
