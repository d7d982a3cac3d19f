/// A `Cache-Control` field read as RFC 9111 (section 5.2) defines it, a request's or a response's:
/// comma-separated directives, names in any case, values as tokens or quoted strings.
///
/// A hostile value cannot make it costly or wrong: only the first ``maximumLength`` bytes are read, and
/// only the first ``maximumDirectives`` directives, and a field longer than either fails closed: it
/// reads as `no-store`, since a `no-store` may follow where reading stopped; delta-seconds past 2^31
/// count as 2^31 (RFC 9111 section 1.2.2); a `max-age` that is not a number counts as 0, so the answer
/// is stale (section 4.2.1); when a directive repeats, the first counts.
struct CacheControl: Sendable, Equatable {
    /// The longest field read, in bytes; what follows is ignored.
    static let maximumLength = 8 << 10
    /// The most directives read.
    static let maximumDirectives = 64
    /// The largest delta-seconds value: RFC 9111's 2^31.
    static let largestDelta: Int64 = 2_147_483_648

    /// `max-age`, in seconds.
    var maxAge: Int64?
    /// `no-store`.
    var noStore = false
    /// `no-cache` (with or without a field list: either way, revalidate every use).
    var noCache = false
    /// `must-revalidate`. (`proxy-revalidate` is read as nothing: it does not apply to a private cache,
    /// RFC 9111 section 5.2.2.8.)
    var mustRevalidate = false
    /// `stale-while-revalidate`, in seconds (RFC 5861).
    var staleWhileRevalidate: Int64?
    /// `stale-if-error`, in seconds (RFC 5861).
    var staleIfError: Int64?
    /// A request's `max-stale`: `largestDelta` when it has no value (any staleness).
    var maxStale: Int64?
    /// A request's `min-fresh`, in seconds.
    var minFresh: Int64?
    /// A request's `only-if-cached`.
    var onlyIfCached = false

    /// The directives of `field`; none for `nil`.
    init(_ field: String?) {
        guard let field else { return }
        var seen = Set<String>()
        let (directives, complete) = Self.read(field)
        if !complete { noStore = true }
        for directive in directives {
            let name = directive.name
            guard seen.insert(name).inserted else { continue }
            let delta = directive.value.map(Self.delta)
            switch name {
            case "max-age": maxAge = (delta ?? nil) ?? 0
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "must-revalidate": mustRevalidate = true
            case "stale-while-revalidate": staleWhileRevalidate = delta ?? nil
            case "stale-if-error": staleIfError = delta ?? nil
            case "max-stale": maxStale = directive.value == nil ? Self.largestDelta : (delta ?? nil)
            case "min-fresh": minFresh = delta ?? nil
            case "only-if-cached": onlyIfCached = true
            default: break
            }
        }
    }

    /// A delta-seconds value: ASCII digits only, saturating at ``largestDelta``; `nil` otherwise.
    static func delta(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        var value: Int64 = 0
        for byte in text.utf8 {
            value = value * 10 + Int64(byte - 48)
            if value >= largestDelta { return largestDelta }
        }
        return value
    }

    /// The directives of `field`, names lowercased, quoted values unquoted, at most
    /// ``maximumDirectives``, from at most ``maximumLength`` bytes.
    static func directives(in field: String) -> [(name: String, value: Substring?)] {
        read(field).directives
    }

    /// The directives of `field` as ``directives(in:)`` reads them, and whether they are all of them
    /// (`false` when the field is longer than ``maximumLength`` bytes or has more than
    /// ``maximumDirectives`` directives).
    static func read(_ field: String) -> (directives: [(name: String, value: Substring?)], complete: Bool) {
        var text = Substring(field)
        var complete = true
        if text.utf8.count > maximumLength {
            text = Substring(String(decoding: text.utf8.prefix(maximumLength), as: UTF8.self))
            complete = false
        }
        // Read as UTF-8 bytes: every separator is ASCII, so each cut falls between characters, and no
        // character is segmented on the way.
        let bytes = text.utf8
        var result: [(name: String, value: Substring?)] = []
        var cursor = bytes.startIndex
        while cursor < bytes.endIndex, result.count < maximumDirectives {
            // A directive runs to the next comma outside quotes.
            var inQuotes = false
            var end = cursor
            var equals: Substring.UTF8View.Index?
            while end < bytes.endIndex {
                let byte = bytes[end]
                if byte == UInt8(ascii: "\"") { inQuotes.toggle() }
                if byte == UInt8(ascii: ","), !inQuotes { break }
                if byte == UInt8(ascii: "="), equals == nil, !inQuotes { equals = end }
                end = bytes.index(after: end)
            }
            let nameEnd = equals ?? end
            let name = Self.lowercasedToken(Substring(bytes[cursor..<nameEnd]).trimmingSpaces)
            var value = equals.map { Substring(bytes[bytes.index(after: $0)..<end]).trimmingSpaces }
            cursor = end < bytes.endIndex ? bytes.index(after: end) : end
            guard !name.isEmpty else { continue }
            if let quoted = value, quoted.utf8.count >= 2, quoted.utf8.first == UInt8(ascii: "\""),
                quoted.utf8.last == UInt8(ascii: "\"")
            {
                value = quoted.dropFirst().dropLast()
            }
            result.append((name, value))
        }
        if result.count == maximumDirectives,
            bytes[cursor...].contains(where: { $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: " ") && $0 != 9 }
            )
        {
            complete = false
        }
        return (result, complete)
    }
}

extension CacheControl {
    /// `token` with ASCII letters lowercased (a directive's name), without Foundation's locale-aware
    /// `lowercased()`.
    static func lowercasedToken(_ token: Substring) -> String {
        guard token.utf8.contains(where: { (65...90).contains($0) }) else { return String(token) }
        return String(decoding: token.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}

extension Substring {
    /// Without the spaces and tabs at either end.
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.utf8.first, first == 32 || first == 9 { text = text.dropFirst() }
        while let last = text.utf8.last, last == 32 || last == 9 { text = text.dropLast() }
        return text
    }
}
