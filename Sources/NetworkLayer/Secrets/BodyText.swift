import Foundation

/// The one decoder every output uses for a body: which text encoding its bytes are in, the text it
/// shows, and its bytes with every secret hidden in that same encoding. Recordings, error excerpts,
/// `failed` event lines and cURL all read a body through it, so a secret is found the same way in each.
///
/// A body is UTF-16 when it starts with a byte-order mark, or when, without one, one byte of most pairs
/// is zero and almost no byte of the other (ASCII text in UTF-16, which is also valid UTF-8 and would
/// otherwise be read as text with NULs); UTF-8 when it is valid UTF-8; otherwise bytes kept one for one
/// (Latin-1, EUC-KR and other charsets that keep ASCII as it is, so names and ASCII values are found).
enum BodyText {
    /// How a body's bytes are text.
    enum Encoding: Equatable {
        case utf8
        case utf16LittleEndian
        case utf16BigEndian
        /// Not UTF-8 or UTF-16: read one byte as one character (Latin-1).
        case bytes
    }

    /// The bytes searched for names before an excerpt is cut: values further in cannot reach the
    /// excerpt's 200 characters.
    static let excerptWindow = 64 << 10

    /// How `bytes` are text, and the length of their byte-order mark.
    static func encoding(of bytes: [UInt8]) -> (encoding: Encoding, markLength: Int) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (.utf16LittleEndian, 2) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (.utf16BigEndian, 2) }
        let pairs = min(bytes.count, 4096) / 2
        if pairs >= 2 {
            var zerosFirst = 0
            var zerosSecond = 0
            for pair in 0..<pairs {
                if bytes[2 * pair] == 0 { zerosFirst += 1 }
                if bytes[2 * pair + 1] == 0 { zerosSecond += 1 }
            }
            if 2 * zerosSecond >= pairs, 8 * zerosFirst < pairs { return (.utf16LittleEndian, 0) }
            if 2 * zerosFirst >= pairs, 8 * zerosSecond < pairs { return (.utf16BigEndian, 0) }
        }
        return (isValidUTF8(bytes) ? .utf8 : .bytes, 0)
    }

    /// Whether `bytes` are UTF-8 text without a byte-order mark (and not UTF-16 that reads as UTF-8).
    static func isPlainUTF8(_ bytes: [UInt8]) -> Bool {
        let (encoding, mark) = encoding(of: bytes)
        return encoding == .utf8 && mark == 0
    }

    /// The body as text, to show: UTF-16 read as such, anything else as UTF-8 with invalid bytes as
    /// U+FFFD.
    static func text(of data: Data) -> String {
        let bytes = [UInt8](data)
        let (encoding, mark) = encoding(of: bytes)
        let payload = bytes[mark...]
        switch encoding {
        case .utf16LittleEndian, .utf16BigEndian:
            return String(decoding: units(payload, encoding), as: UTF16.self)
        case .utf8, .bytes:
            return String(decoding: payload, as: UTF8.self)
        }
    }

    /// The first `limit` characters of the body, on one line, with every secret hidden before the cut:
    /// declared and learned values anywhere in the first ``excerptWindow`` bytes, in any encoding, and
    /// names (`key=…`, `Authorization: …`) in the text. What an error description and a `failed` event
    /// show.
    static func excerpt(of data: Data, limit: Int = 200) -> String {
        let window = Credentials.redactValues(in: Data(data.prefix(excerptWindow)))
        return String(Redaction.redact(text: text(of: window)).prefix(max(limit, 0)))
    }

    /// The body's bytes with every secret hidden, in the body's own encoding (and byte-order mark): what
    /// a recording writes. Values are hidden in every encoding; names (`key=…`) in UTF-8 and UTF-16 text,
    /// and in other bytes when `isText` (a text content type), read as Latin-1, which keeps every byte it
    /// does not hide.
    static func redacted(_ data: Data, isText: Bool) -> Data {
        let bytes = [UInt8](data)
        let (encoding, mark) = encoding(of: bytes)
        let payload = bytes[mark...]
        var result = data
        switch encoding {
        case .utf8:
            result =
                Data(bytes[..<mark])
                + Data(Redaction.redact(text: String(decoding: payload, as: UTF8.self)).utf8)
        case .utf16LittleEndian, .utf16BigEndian:
            let units = units(payload, encoding)
            let text = String(decoding: units, as: UTF16.self)
            // Only text that reads back to the same bytes is rewritten (no lone surrogate, no odd byte).
            if payload.count % 2 == 0, Array(text.utf16) == units {
                result = Data(bytes[..<mark]) + Self.bytes(of: Redaction.redact(text: text), encoding)
            }
        case .bytes:
            if isText, let text = String(data: data, encoding: .isoLatin1),
                let hidden = Redaction.redact(text: text).data(using: .isoLatin1)
            {
                result = hidden
            }
        }
        return Credentials.redactValues(in: result)
    }

    private static func units(_ bytes: ArraySlice<UInt8>, _ encoding: Encoding) -> [UInt16] {
        let start = bytes.startIndex
        return (0..<bytes.count / 2).map { index in
            let (first, second) = (UInt16(bytes[start + 2 * index]), UInt16(bytes[start + 2 * index + 1]))
            return encoding == .utf16BigEndian ? first << 8 | second : second << 8 | first
        }
    }

    private static func bytes(of text: String, _ encoding: Encoding) -> Data {
        var data = Data(capacity: text.utf16.count * 2)
        for unit in text.utf16 {
            let (high, low) = (UInt8(truncatingIfNeeded: unit >> 8), UInt8(truncatingIfNeeded: unit))
            if encoding == .utf16BigEndian {
                data.append(contentsOf: [high, low])
            } else {
                data.append(contentsOf: [low, high])
            }
        }
        return data
    }

    private static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
