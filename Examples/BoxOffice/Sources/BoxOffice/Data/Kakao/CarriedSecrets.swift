import Foundation

/// The run's API keys, and the check that no text about to leave for a host, or to be cached, carries
/// one, whole or in part (``KeyFragments``: any letter case, six bytes of one holding a letter), as is
/// or percent-encoded as a URL would carry it (`%4B` for `K`), even beside escapes that do not decode.
struct CarriedSecrets: Sendable {
    private let fragments: KeyFragments
    /// Each key, letter case folded.
    private let keys: [[UInt8]]

    /// The keys; empty strings are ignored.
    init(_ secrets: [String]) {
        self.fragments = KeyFragments(secrets)
        self.keys = secrets.filter { !$0.isEmpty }.map { KeyFragments.folded(Array($0.utf8)) }
    }

    /// Whether `text` carries one of the keys, whole or in part, as is or percent-decoded.
    func appear(in text: String) -> Bool {
        let raw = Array(text.utf8)
        return !fragments.ranges(in: raw).isEmpty || !fragments.ranges(in: Self.percentDecoded(raw)).isEmpty
    }

    /// Whether `bytes` (an image, its headers) carry one of the keys whole, in any ASCII letter case, as
    /// is or percent-decoded.
    func appearWhole(in bytes: Data) -> Bool {
        let raw = [UInt8](bytes)
        let haystacks = [KeyFragments.folded(raw), KeyFragments.folded(Self.percentDecoded(raw))]
        return keys.contains { key in
            haystacks.contains { Data($0).range(of: Data(key)) != nil }
        }
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
}
