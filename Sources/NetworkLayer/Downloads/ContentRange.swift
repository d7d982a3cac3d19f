import Foundation

/// A `Content-Range: bytes first-last/total` header, checked: digits only, no overflow, first ≤ last,
/// last < total when the total is known, and last + 1 a number. The one place a `Content-Range` is read:
/// a `416`'s `bytes */N` too (``unsatisfiedLength(_:)``).
struct ContentRange: Equatable {
    let first: Int64
    let last: Int64
    let total: Int64?

    init(first: Int64, last: Int64, total: Int64?) {
        (self.first, self.last, self.total) = (first, last, total)
    }

    init?(_ header: String?) {
        guard let header, header.hasPrefix("bytes ") else { return nil }
        let spec = header.dropFirst("bytes ".count)
        let parts = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let bounds = parts[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        // `last + 1`, where the next byte starts, must be a number too.
        guard bounds.count == 2, let first = Self.number(bounds[0]), let last = Self.number(bounds[1]),
            first <= last, last < Int64.max
        else { return nil }
        let total: Int64?
        if parts[1] == "*" {
            total = nil
        } else {
            guard let value = Self.number(parts[1]), last < value else { return nil }
            total = value
        }
        (self.first, self.last, self.total) = (first, last, total)
    }

    /// `N` of a `416`'s `Content-Range: bytes */N` (the length of the representation no range of which
    /// could be sent): digits only, no overflow; `nil` for any other form.
    static func unsatisfiedLength(_ header: String?) -> Int64? {
        guard let header, header.hasPrefix("bytes */") else { return nil }
        return number(header.dropFirst("bytes */".count))
    }

    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(text)
    }
}
