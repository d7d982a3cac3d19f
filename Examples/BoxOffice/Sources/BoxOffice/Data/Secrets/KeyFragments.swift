/// Finds the run's API keys in text, whole or in part, wherever they sit: the one rule that decides
/// what is redacted on screen, in JSON and HTML, kept out of a cache, or not sent to another host.
///
/// A key is found
/// - whole, in any ASCII letter case (issued keys are hexadecimal: `ABCD` carries `abcd`);
/// - in part: any ``shortestFragment`` consecutive bytes of a key that hold a letter, at the start, in
///   the middle or at the end of the text (an excerpt a server or a library cut mid-key). A run of
///   digits alone is not counted, so a date or a film code that happens to sit inside a key stays.
///
/// Compared byte by byte in UTF-8, so a combining mark or any other neighbour cannot hide a key, in time
/// linear in the text's length (Knuth–Morris–Pratt for whole keys, one table look-up per byte for
/// fragments). Keys shorter than ``shortestKey`` are ignored.
public struct KeyFragments: Sendable {
    /// How many consecutive bytes of a key count as a fragment of it: 6.
    public static let shortestFragment = 6
    /// The shortest key looked for: 4 characters.
    public static let shortestKey = 4

    private struct Key: Sendable {
        let bytes: [UInt8]
        let failure: [Int]
    }

    private let keys: [Key]
    /// Every fragment of every key, packed 6 bytes to an integer, case folded.
    private let fragments: Set<UInt64>
    /// The fragments' first two bytes, for a quick refusal of most positions.
    private let starts: Set<UInt16>

    /// The keys to find; empty or short ones are ignored.
    public init(_ keys: [String]) {
        let folded = keys.filter { $0.utf8.count >= Self.shortestKey }.map { Self.folded(Array($0.utf8)) }
        self.keys = folded.map { Key(bytes: $0, failure: Self.failureTable($0)) }
        var fragments: Set<UInt64> = []
        var starts: Set<UInt16> = []
        for key in folded where key.count >= Self.shortestFragment {
            for start in 0...(key.count - Self.shortestFragment) {
                let window = key[start..<(start + Self.shortestFragment)]
                guard window.contains(where: Self.isLetter) else { continue }
                fragments.insert(Self.packed(window))
                // A slice keeps its base's indices: `start` is its first.
                starts.insert(UInt16(window[start]) << 8 | UInt16(window[start + 1]))
            }
        }
        self.fragments = fragments
        self.starts = starts
    }

    /// Whether `text` carries a key, whole or in part.
    public func occur(in text: String) -> Bool {
        !ranges(in: Array(text.utf8)).isEmpty
    }

    /// `text` with every key, and every run of fragments of one, replaced by `replacement`.
    public func redacting(_ text: String, with replacement: String = "REDACTED") -> String {
        let bytes = Array(text.utf8)
        let found = ranges(in: bytes)
        guard !found.isEmpty else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var copied = 0
        for range in found {
            result += bytes[copied..<range.lowerBound]
            result += replacement.utf8
            copied = range.upperBound
        }
        result += bytes[copied...]
        return String(decoding: result, as: UTF8.self)
    }

    /// The byte ranges of `bytes` that belong to a key, merged where they touch or overlap, in order.
    public func ranges(in bytes: [UInt8]) -> [Range<Int>] {
        guard !keys.isEmpty else { return [] }
        let text = Self.folded(bytes)
        var marked: [Range<Int>] = []
        for key in keys { marked += Self.occurrences(of: key, in: text) }
        if !fragments.isEmpty, text.count >= Self.shortestFragment {
            for start in 0...(text.count - Self.shortestFragment)
            where starts.contains(UInt16(text[start]) << 8 | UInt16(text[start + 1])) {
                let end = start + Self.shortestFragment
                if fragments.contains(Self.packed(text[start..<end])) { marked.append(start..<end) }
            }
        }
        return Self.merged(marked)
    }

    /// Every occurrence of `key` in `text`, overlapping ones included (Knuth–Morris–Pratt).
    private static func occurrences(of key: Key, in text: [UInt8]) -> [Range<Int>] {
        let needle = key.bytes
        guard text.count >= needle.count else { return [] }
        var found: [Range<Int>] = []
        var matched = 0
        for (index, byte) in text.enumerated() {
            while matched > 0, byte != needle[matched] { matched = key.failure[matched - 1] }
            if byte == needle[matched] { matched += 1 }
            if matched == needle.count {
                found.append((index + 1 - needle.count)..<(index + 1))
                matched = key.failure[matched - 1]
            }
        }
        return found
    }

    /// For each prefix of `pattern`, the length of its longest proper start that is also its ending.
    static func failureTable(_ pattern: [UInt8]) -> [Int] {
        var table = [Int](repeating: 0, count: pattern.count)
        var length = 0
        for index in pattern.indices.dropFirst() {
            while length > 0, pattern[index] != pattern[length] { length = table[length - 1] }
            if pattern[index] == pattern[length] { length += 1 }
            table[index] = length
        }
        return table
    }

    /// `ranges` sorted and joined where they touch or overlap.
    private static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    private static func packed(_ window: ArraySlice<UInt8>) -> UInt64 {
        window.reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte)
    }

    /// `bytes` with ASCII capitals made small; every other byte, and so every offset, unchanged.
    static func folded(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
    }
}
