import Foundation

/// Finds every form of every secret value in bytes and replaces it, in one pass over the bytes: the time
/// grows with the bytes searched, not with how many values are kept.
///
/// Each form is searched for as UTF-8 (which ASCII, Latin-1 and EUC-KR text share for a key's
/// characters) and as UTF-16 in both byte orders. Every needle is at least 8 bytes long (a value has at
/// least ``CredentialStore/shortestValue`` characters), so each position of the bytes is tested by its
/// next 8 bytes: a bit in a 64 Kib filter first, a table lookup only when the bit is set. Values that
/// share their first 8 bytes (tokens of one issuer) are compared one by one where that prefix occurs.
/// Matching bytes, not characters, finds a value followed by a combining mark (U+0301, U+FE0F, U+200D)
/// too; a UTF-8 needle in UTF-8 text starts and ends on a scalar's boundary, and a placeholder is ASCII,
/// so the text stays valid.
struct SecretMatcher: Sendable {
    /// Bytes to find, and what replaces them: the placeholder in the needle's own encoding.
    struct Needle: Sendable {
        let bytes: [UInt8]
        let replacement: [UInt8]
        /// A UTF-16 needle is only looked for at even offsets: UTF-16 text one byte off reads as the
        /// other byte order, and a match there would split every character after it.
        let isUTF16: Bool
    }

    /// How many leading bytes index a needle.
    static let prefixLength = 8
    private static let filterBits = 1 << 16

    /// Needles by their first 8 bytes, longest first.
    private var needlesByPrefix: [UInt64: [Needle]] = [:]
    /// One bit per hash of a prefix: set for every needle's; a removed needle's bit stays set until the
    /// filter is rebuilt (a lookup that finds nothing is the only cost meanwhile).
    private var filter = [UInt64](repeating: 0, count: Self.filterBits / 64)
    /// Needles removed since the filter was last rebuilt: past the number kept, it is rebuilt from the
    /// needles kept, so values that come and go (a token per request) never fill it.
    private var removedSinceRebuild = 0

    /// How many of the filter's bits are set (for tests).
    var filterPopulation: Int { filter.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Whether there is nothing to find.
    var isEmpty: Bool { needlesByPrefix.isEmpty }

    /// - Parameter forms: The texts to find (``insert(forms:)``).
    init(forms: some Sequence<String>) {
        insert(forms: forms)
    }

    /// Searches for `forms` too, each in UTF-8 and in UTF-16 of both byte orders; a form shorter than 8
    /// bytes is ignored.
    mutating func insert(forms: some Sequence<String>) {
        for form in forms {
            for (bytes, replacement, isUTF16) in Self.encodings(of: form) {
                let prefix = Self.word(bytes)
                var needles = needlesByPrefix[prefix, default: []]
                needles.append(Needle(bytes: bytes, replacement: replacement, isUTF16: isUTF16))
                needlesByPrefix[prefix] = needles.sorted { $0.bytes.count > $1.bytes.count }
                let bit = Self.filterIndex(prefix)
                filter[bit >> 6] |= 1 << UInt64(bit & 63)
            }
        }
    }

    /// Stops searching for `forms` (once each: a form inserted twice is still searched for once).
    mutating func remove(forms: some Sequence<String>) {
        for form in forms {
            for (bytes, _, _) in Self.encodings(of: form) {
                let prefix = Self.word(bytes)
                guard var needles = needlesByPrefix[prefix],
                    let index = needles.firstIndex(where: { $0.bytes == bytes })
                else { continue }
                needles.remove(at: index)
                needlesByPrefix[prefix] = needles.isEmpty ? nil : needles
                removedSinceRebuild += 1
            }
        }
        if removedSinceRebuild > needlesByPrefix.count {
            filter = [UInt64](repeating: 0, count: Self.filterBits / 64)
            for prefix in needlesByPrefix.keys {
                let bit = Self.filterIndex(prefix)
                filter[bit >> 6] |= 1 << UInt64(bit & 63)
            }
            removedSinceRebuild = 0
        }
    }

    /// `form` and the placeholder in UTF-8, UTF-16 little-endian and big-endian, when at least 8 bytes.
    private static func encodings(of form: String) -> [(bytes: [UInt8], replacement: [UInt8], isUTF16: Bool)]
    {
        let encoders: [(String) -> [UInt8]] = [
            { Array($0.utf8) },
            { $0.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] } },
            { $0.utf16.flatMap { [UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)] } },
        ]
        return encoders.enumerated().compactMap { index, encode in
            let bytes = encode(form)
            return bytes.count >= prefixLength ? (bytes, encode(Redaction.placeholder), index > 0) : nil
        }
    }

    /// `data` with every needle replaced; the same data when none is in it.
    func redact(_ data: Data) -> Data {
        guard !isEmpty, data.count >= Self.prefixLength else { return data }
        let replaced = data.withUnsafeBytes { replacing(in: $0) }
        return replaced.map { Data($0) } ?? data
    }

    /// `text` with every needle replaced, compared as UTF-8 bytes.
    func redact(_ text: String) -> String {
        guard !isEmpty, text.utf8.count >= Self.prefixLength else { return text }
        var text = text
        let replaced = text.withUTF8 { replacing(in: UnsafeRawBufferPointer($0)) }
        return replaced.map { String(decoding: $0, as: UTF8.self) } ?? text
    }

    /// Whether any needle is in `text`.
    func isFound(in text: String) -> Bool {
        guard !isEmpty, text.utf8.count >= Self.prefixLength else { return false }
        var text = text
        return text.withUTF8 { replacing(in: UnsafeRawBufferPointer($0)) } != nil
    }

    /// Whether any needle is in `data`.
    func isFound(in data: Data) -> Bool {
        guard !isEmpty, data.count >= Self.prefixLength else { return false }
        return data.withUnsafeBytes { replacing(in: $0) } != nil
    }

    /// The bytes with every needle replaced, leftmost first and the longest at a position; `nil` when
    /// there is none.
    private func replacing(in bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        var output: [UInt8] = []
        var found = false
        var copied = 0
        var index = 0
        let count = bytes.count
        while index <= count - Self.prefixLength {
            let prefix = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let bit = Self.filterIndex(prefix)
            guard filter[bit >> 6] & (1 << UInt64(bit & 63)) != 0, let needles = needlesByPrefix[prefix],
                let needle = needles.first(where: { Self.matches($0, in: bytes, at: index) })
            else {
                index += 1
                continue
            }
            if !found {
                found = true
                output.reserveCapacity(count)
            }
            output.append(contentsOf: bytes[copied..<index])
            output.append(contentsOf: needle.replacement)
            index = end(ofMatchAt: index, length: needle.bytes.count, in: bytes)
            copied = index
        }
        guard found else { return nil }
        output.append(contentsOf: bytes[copied..<count])
        return output
    }

    /// Where a match of `length` bytes at `start` ends once every needle that starts inside it and ends
    /// past it is joined to it: two values that overlap (`tok_12345678` and `12345678abcdefgh`) are
    /// hidden as one, so no tail of the second shows after the first's placeholder.
    private func end(ofMatchAt start: Int, length: Int, in bytes: UnsafeRawBufferPointer) -> Int {
        var end = start + length
        var position = start + 1
        while position < end, position <= bytes.count - Self.prefixLength {
            let prefix = bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            let bit = Self.filterIndex(prefix)
            if filter[bit >> 6] & (1 << UInt64(bit & 63)) != 0, let needles = needlesByPrefix[prefix],
                let needle = needles.first(where: { Self.matches($0, in: bytes, at: position) })
            {
                end = max(end, position + needle.bytes.count)
            }
            position += 1
        }
        return end
    }

    private static func matches(_ needle: Needle, in bytes: UnsafeRawBufferPointer, at index: Int) -> Bool {
        guard needle.bytes.count <= bytes.count - index, !needle.isUTF16 || index % 2 == 0,
            let base = bytes.baseAddress
        else { return false }
        return needle.bytes.withUnsafeBytes { needle in
            needle.baseAddress.map { memcmp($0, base + index, needle.count) == 0 } ?? false
        }
    }

    private static func word(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
    }

    private static func filterIndex(_ prefix: UInt64) -> Int {
        Int(truncatingIfNeeded: (prefix &* 0x9E37_79B9_7F4A_7C15) >> 48)
    }
}
