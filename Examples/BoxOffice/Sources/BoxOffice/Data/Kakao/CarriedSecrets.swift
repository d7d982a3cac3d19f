import Foundation

/// The run's API keys, and the check that no text about to leave for a host, or to be cached, carries
/// one: as is, in another letter case (issued keys are hexadecimal, so `ABCD` carries `abcd`), or
/// percent-encoded as a URL would carry it (`%4B` for `K`), even beside escapes that do not decode.
/// Compared byte by byte: keys are ASCII, and no combining mark next to one can hide it.
struct CarriedSecrets: Sendable {
    private let secrets: [[UInt8]]

    /// The keys; empty strings are ignored.
    init(_ secrets: [String]) {
        self.secrets = secrets.filter { !$0.isEmpty }.map { Self.folded(Array($0.utf8)) }
    }

    /// Whether `text` contains one of the keys, as is or percent-decoded, ignoring ASCII letter case.
    func appear(in text: String) -> Bool {
        guard !secrets.isEmpty else { return false }
        let raw = Self.folded(Array(text.utf8))
        let decoded = Self.folded(Self.percentDecoded(Array(text.utf8)))
        return secrets.contains { Self.contains(raw, $0) || Self.contains(decoded, $0) }
    }

    /// Whether `text` is a URL with a user name or password (`https://user:pass@host/`), which
    /// URLSession would send as an `Authorization` header to that host.
    static func hasUserInfo(_ text: String) -> Bool {
        guard let components = URLComponents(string: text) else { return text.contains("@") }
        return components.user != nil || components.password != nil
    }

    /// `bytes` with every valid `%XX` escape decoded and every other byte kept: one bad escape does not
    /// stop the rest from being decoded (Foundation's `removingPercentEncoding` gives up on the lot).
    static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x41...0x46: byte - 0x41 + 10
            case 0x61...0x66: byte - 0x61 + 10
            default: nil
            }
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x25, index + 2 < bytes.count, let high = hex(bytes[index + 1]),
                let low = hex(bytes[index + 2])
            {
                result.append(high << 4 | low)
                index += 3
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    /// `bytes` with ASCII capitals made small.
    private static func folded(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
    }

    /// Whether `haystack` holds `needle` (a key: at most 256 bytes, so the naive search is bounded).
    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start] == needle[0] && haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }
}
