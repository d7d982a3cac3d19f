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
        var base = baseURL.absoluteString
        var trimmed = Substring(path)
        while trimmed.hasPrefix("/") { trimmed.removeFirst() }
        // An empty path uses the base URL exactly as given, trailing slash included.
        if base.hasSuffix("/"), !trimmed.isEmpty { base.removeLast() }
        var string = trimmed.isEmpty ? base : base + "/" + trimmed
        if !queryItems.isEmpty {
            string += (string.contains("?") ? "&" : "?") + QueryEncoding.encode(queryItems)
        }
        guard let url = URL(string: string), url.scheme != nil, url.host != nil else { return nil }
        return url
    }
}
