import Foundation

/// Percent-encoding for query strings and form bodies: everything outside RFC 3986's unreserved set
/// (`A–Z a–z 0–9 - . _ ~`) is escaped as UTF-8, so `+`, `&`, `=` and spaces in a value survive the trip
/// (`URLComponents` leaves `+` raw, which servers read as a space).
enum QueryEncoding {
    private static let unreserved: CharacterSet = {
        var set = CharacterSet(charactersIn: "-._~")
        set.formUnion(CharacterSet(charactersIn: "a"..."z"))
        set.formUnion(CharacterSet(charactersIn: "A"..."Z"))
        set.formUnion(CharacterSet(charactersIn: "0"..."9"))
        return set
    }()

    static func escape(_ string: String) -> String {
        string.addingPercentEncoding(withAllowedCharacters: unreserved) ?? string
    }

    static func encode(_ items: [URLQueryItem]) -> String {
        items.map { item in
            guard let value = item.value else { return escape(item.name) }
            return escape(item.name) + "=" + escape(value)
        }.joined(separator: "&")
    }
}

/// Joins a base URL, a path and query items.
enum RequestURL {
    static func make(baseURL: URL, path: String, queryItems: [URLQueryItem]) -> URL? {
        // A whole URL with nothing to add (`Endpoint(url:)`) is used as it is: parsing its own text
        // again gives the same URL, for about 3,400 instructions on Linux.
        let whole = path.isEmpty && queryItems.isEmpty && baseURL.baseURL == nil
        // The host as written: whether there is one needs no IDNA decoding (which `host` does on Linux).
        guard
            let url = whole
                ? baseURL : URL(string: string(baseURL: baseURL, path: path, queryItems: queryItems)),
            url.scheme != nil, url.host(percentEncoded: true) != nil
        else { return nil }
        return url
    }

    /// The text handed to `URL(string:)`: always ASCII. The path's characters that no URL may hold
    /// (anything not ASCII, spaces, controls, `"<>\^`{|}[]`, a `%` not followed by two hexadecimal
    /// digits, a `#` after the first) are percent-encoded as UTF-8 here, since `URL(string:)` does so
    /// itself only from iOS 17 and macOS 14 (and on Linux), and returns `nil` before; `%XX` and every
    /// other character, `?` and the first `#` included, are kept as they are.
    static func string(baseURL: URL, path: String, queryItems: [URLQueryItem]) -> String {
        var base = baseURL.absoluteString
        var trimmed = Substring(path)
        while trimmed.hasPrefix("/") { trimmed.removeFirst() }
        // An empty path uses the base URL exactly as given, trailing slash included.
        if base.hasSuffix("/"), !trimmed.isEmpty { base.removeLast() }
        var string = trimmed.isEmpty ? base : base + "/" + escapingPath(trimmed)
        if !queryItems.isEmpty {
            string += (string.contains("?") ? "&" : "?") + QueryEncoding.encode(queryItems)
        }
        return string
    }

    /// `path` with the bytes no URL may hold percent-encoded (see ``string(baseURL:path:queryItems:)``).
    static func escapingPath(_ path: Substring) -> String {
        // Most paths need nothing: one pass over the bytes, no copy, says so.
        var hashes = 0
        var needsEscaping = false
        for byte in path.utf8 {
            if byte == UInt8(ascii: "#") {
                hashes += 1
            } else if !isKept(byte) || byte == UInt8(ascii: "%") {
                needsEscaping = true
                break
            }
        }
        guard needsEscaping || hashes >= 2 else { return String(path) }
        let bytes = Array(path.utf8)
        var escaped: [UInt8] = []
        escaped.reserveCapacity(bytes.count * 3)
        let hex = Array("0123456789ABCDEF".utf8)
        var inFragment = false
        for (index, byte) in bytes.enumerated() {
            let keptPercent =
                byte == UInt8(ascii: "%") && index + 2 < bytes.count
                && isHexDigit(bytes[index + 1]) && isHexDigit(bytes[index + 2])
            // A second `#` may not stand in a fragment.
            let secondHash = byte == UInt8(ascii: "#") && inFragment
            if byte == UInt8(ascii: "#") { inFragment = true }
            if byte == UInt8(ascii: "%") ? keptPercent : isKept(byte) && !secondHash {
                escaped.append(byte)
            } else {
                escaped += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// Whether a URL may hold `byte` as it is: printable ASCII other than space and `"<>\^`{|}[]`.
    private static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "^"),
            UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"), UInt8(ascii: "["),
            UInt8(ascii: "]"):
            false
        default: (0x21...0x7E).contains(byte)
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
