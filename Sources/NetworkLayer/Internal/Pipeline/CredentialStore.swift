import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The store behind ``Credentials``: the process has one (``shared``); tests make their own.
final class CredentialStore: Sendable {
    static let shared = CredentialStore()

    /// The most values kept of each kind, declared and learned: the newest 64.
    static let valueLimit = 64
    /// The shortest value hidden wherever it appears: 8 characters.
    static let shortestValue = 8

    private struct State: Sendable {
        var headerNames: Set<String> = []
        var queryNames: Set<String> = []
        /// Values declared as such (a group's, a configuration's, your own), oldest first: kept apart from
        /// learned ones, so values that change on every request (a signature, a token) never push them out.
        var pinned: [String] = []
        /// Values learned from attempts and tokens, oldest first.
        var learned: [String] = []
        /// The forms each value kept is searched for in, made once per value.
        var formsByValue: [String: [String]] = [:]
        /// Every form of every value kept: rebuilt only when a value comes or goes, not when one seen
        /// again moves to the newest end.
        var forms: [String] = []

        mutating func add(_ value: String, pinned isPinned: Bool) {
            var evicted: String?
            if isPinned {
                guard !pinned.contains(value) else { return }
                pinned.append(value)
                if pinned.count > CredentialStore.valueLimit { evicted = pinned.removeFirst() }
            } else {
                if let index = learned.firstIndex(of: value) {
                    // Seen again: now the newest, searched for as before.
                    learned.remove(at: index)
                    learned.append(value)
                    return
                }
                learned.append(value)
                if learned.count > CredentialStore.valueLimit { evicted = learned.removeFirst() }
            }
            if let evicted, !pinned.contains(evicted), !learned.contains(evicted) {
                formsByValue[evicted] = nil
            }
            if formsByValue[value] == nil { formsByValue[value] = CredentialStore.forms(of: value) }
            forms = formsByValue.values.flatMap { $0 }
        }
    }

    private let state = Locked(State())

    /// Declares header fields and query items whose values are credentials, compared without case.
    /// - Parameters:
    ///   - headerNames: Header field names, such as `CB-ACCESS-PASSPHRASE`.
    ///   - queryNames: Query item names, such as `serviceKey`.
    func declare(headerNames: some Sequence<String>, queryNames: some Sequence<String>) {
        let headers = headerNames.map { $0.lowercased() }
        let queries = queryNames.map { $0.lowercased() }
        guard !headers.isEmpty || !queries.isEmpty else { return }
        state.withLock { state in
            state.headerNames.formUnion(headers)
            state.queryNames.formUnion(queries)
        }
    }

    /// Declares a credential's value: hidden wherever NetworkLayer writes it (at least ``shortestValue``
    /// characters long; shorter ones are ignored). A declared value stays among the newest ``valueLimit``
    /// declared ones; a learned one among the newest learned ones.
    /// - Parameters:
    ///   - value: The secret, as sent.
    ///   - pinned: Whether it was declared (a group's, a configuration's) rather than learned from an
    ///     attempt or a token.
    func declare(value: String, pinned: Bool = true) {
        guard value.count >= Self.shortestValue else { return }
        state.withLock { $0.add(value, pinned: pinned) }
    }

    /// The forms a value is searched for in: as sent, percent-encoded (RFC 3986's unreserved characters
    /// kept, hex in either case), form-encoded (`+` for a space), and with `/` escaped as JSON writes it.
    static func forms(of value: String) -> [String] {
        var forms = [value]
        if let encoded = value.addingPercentEncoding(withAllowedCharacters: unreserved), encoded != value {
            forms.append(encoded)
            let lowercaseHex = lowercasingPercentEscapes(encoded)
            if lowercaseHex != encoded { forms.append(lowercaseHex) }
            let formEncoded = encoded.replacingOccurrences(of: "%20", with: "+")
            if formEncoded != encoded { forms.append(formEncoded) }
        }
        if value.contains("/") { forms.append(value.replacingOccurrences(of: "/", with: "\\/")) }
        return forms
    }

    /// RFC 3986's unreserved characters: ASCII letters and digits, `-`, `.`, `_` and `~`.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `text` with the two hex digits after each `%` in lowercase.
    private static func lowercasingPercentEscapes(_ text: String) -> String {
        var result = ""
        var pending = 0
        for character in text {
            if character == "%" {
                pending = 2
                result.append(character)
            } else if pending > 0 {
                pending -= 1
                result.append(contentsOf: character.lowercased())
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// Whether a header field with this name was declared a credential.
    /// - Parameter name: The field's name, in any case.
    func isDeclared(headerName name: String) -> Bool {
        let lowered = name.lowercased()
        return state.withLock { $0.headerNames.contains(lowered) }
    }

    /// Whether a query item with this name was declared a credential.
    /// - Parameter name: The item's name, in any case.
    func isDeclared(queryName name: String) -> Bool {
        let lowered = name.lowercased()
        return state.withLock { $0.queryNames.contains(lowered) }
    }

    /// `text` with every declared value (and its percent-encoded form) replaced by
    /// ``Redaction/placeholder``.
    /// - Parameter text: Any text.
    /// - Returns: The text without the values.
    func redactValues(in text: String) -> String {
        let forms = state.withLock { $0.forms }
        var text = text
        for form in forms where text.contains(form) {
            text = text.replacingOccurrences(of: form, with: Redaction.placeholder)
        }
        return text
    }

    /// `data` with every declared value replaced, as bytes in UTF-8 (which ASCII, Latin-1 and EUC-KR
    /// text share for a key's characters) and in UTF-16 of either byte order.
    func redactValues(in data: Data) -> Data {
        let forms = state.withLock { $0.forms }
        guard !forms.isEmpty else { return data }
        var data = data
        for form in forms {
            for encoding in [String.Encoding.utf8, .utf16LittleEndian, .utf16BigEndian] {
                guard let needle = form.data(using: encoding),
                    let placeholder = Redaction.placeholder.data(using: encoding)
                else { continue }
                data = data.replacingOccurrences(of: needle, with: placeholder)
            }
        }
        return data
    }

    /// Learns the values `request` carries in declared fields: what a provider does before each attempt.
    func learnValues(from request: URLRequest) {
        let (headers, queries) = state.withLock { ($0.headerNames, $0.queryNames) }
        guard !headers.isEmpty || !queries.isEmpty else { return }
        for (name, value) in request.allHTTPHeaderFields ?? [:] where headers.contains(name.lowercased()) {
            declareHeaderValue(value, pinned: false)
        }
        guard !queries.isEmpty, let url = request.url,
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
        else { return }
        for item in items where queries.contains(item.name.lowercased()) {
            if let value = item.value { declare(value: value, pinned: false) }
        }
    }

    /// Declares a header's value, and the token after its scheme (`Bearer abc…`: `abc…` too).
    func declareHeaderValue(_ value: String, pinned: Bool = true) {
        declare(value: value, pinned: pinned)
        if let space = value.firstIndex(of: " ") {
            declare(value: String(value[value.index(after: space)...]), pinned: pinned)
        }
    }
}

extension Data {
    /// This data with every occurrence of `needle` replaced by `replacement`.
    fileprivate func replacingOccurrences(of needle: Data, with replacement: Data) -> Data {
        guard !needle.isEmpty, count >= needle.count else { return self }
        var result = Data()
        var searchStart = startIndex
        var copied = startIndex
        while let found = self[searchStart...].range(of: needle) {
            result.append(self[copied..<found.lowerBound])
            result.append(replacement)
            copied = found.upperBound
            searchStart = found.upperBound
        }
        guard copied != startIndex else { return self }
        result.append(self[copied...])
        return result
    }
}
