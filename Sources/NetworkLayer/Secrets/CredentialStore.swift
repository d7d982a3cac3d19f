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
        /// How many requests still running carry each value: a value in use is never pushed out.
        var inUse: [String: Int] = [:]
        /// The forms each value kept is searched for in, made once per value.
        var formsByValue: [String: [String]] = [:]
        /// Every form of every value kept, found in one pass: changed only when a value comes or goes,
        /// not when one seen again moves to the newest end.
        var matcher = SecretMatcher(forms: [])
        /// The forms of the declared values only: what a recording's match key hides, so that a key
        /// never depends on what earlier requests taught the store.
        var declaredMatcher = SecretMatcher(forms: [])
        /// Changes whenever what the store says of a name or a text may change: a name declared, a value
        /// searched for or no longer searched for. What is worked out from it may be kept while this
        /// stays the same (the HTTP cache's keys).
        var revision: UInt64 = 0

        /// Drops the oldest learned values no running request carries until at most ``valueLimit`` are
        /// kept: while more are in use, the list exceeds the limit by at most the values of the requests
        /// running, and shrinks back as they end.
        mutating func trimLearned() {
            var index = 0
            while learned.count > CredentialStore.valueLimit, index < learned.count {
                if inUse[learned[index]] == nil {
                    forget(learned.remove(at: index))
                } else {
                    index += 1
                }
            }
        }

        /// Stops searching for `value` unless it is still kept, as declared or learned.
        mutating func forget(_ value: String) {
            guard !pinned.contains(value), !learned.contains(value),
                let forms = formsByValue.removeValue(forKey: value)
            else { return }
            matcher.remove(forms: forms)
            revision &+= 1
        }

        mutating func add(_ value: String, pinned isPinned: Bool) {
            var evicted: String?
            if isPinned {
                guard !pinned.contains(value) else { return }
                pinned.append(value)
                declaredMatcher.insert(forms: formsByValue[value] ?? CredentialStore.forms(of: value))
                if pinned.count > CredentialStore.valueLimit {
                    let oldest = pinned.removeFirst()
                    declaredMatcher.remove(forms: formsByValue[oldest] ?? CredentialStore.forms(of: oldest))
                    evicted = oldest
                }
            } else {
                if let index = learned.firstIndex(of: value) {
                    // Seen again: now the newest, searched for as before.
                    learned.remove(at: index)
                    learned.append(value)
                    return
                }
                learned.append(value)
                trimLearned()
            }
            if let evicted { forget(evicted) }
            // A value learned while every other one is in use may itself be the one dropped.
            guard pinned.contains(value) || learned.contains(value) else { return }
            if formsByValue[value] == nil {
                let forms = CredentialStore.forms(of: value)
                formsByValue[value] = forms
                matcher.insert(forms: forms)
                revision &+= 1
            }
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
            let known = state.headerNames.count + state.queryNames.count
            state.headerNames.formUnion(headers)
            state.queryNames.formUnion(queries)
            if state.headerNames.count + state.queryNames.count != known { state.revision &+= 1 }
        }
    }

    /// Changes whenever a name is declared or a value comes or goes: a result worked out from the
    /// store's rules (which names are secret, which texts carry a value) may be kept while it is the
    /// same.
    var revision: UInt64 { state.withLock { $0.revision } }

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
        forms.append(contentsOf: jsonEscapedForms(of: value))
        return forms
    }

    /// `value` as JSON writers put it inside a string, when that differs from the value: `"` and `\`
    /// escaped, and other characters kept (JSONEncoder) or, past ASCII, written as `\u` with hex digits
    /// in either case (JSONSerialization's ASCII mode, Python's `json.dumps`).
    static func jsonEscapedForms(of value: String) -> [String] {
        var kept = ""
        var lower = ""
        var upper = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"", "\\":
                let escaped = "\\" + String(scalar)
                (kept, lower, upper) = (kept + escaped, lower + escaped, upper + escaped)
            case _ where scalar.isASCII:
                let character = String(scalar)
                (kept, lower, upper) = (kept + character, lower + character, upper + character)
            default:
                kept += String(scalar)
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16)
                    let padded = String(repeating: "0", count: 4 - hex.count) + hex
                    (lower, upper) = (lower + "\\u" + padded, upper + "\\u" + padded.uppercased())
                }
            }
        }
        return Array(Set([kept, lower, upper]).subtracting([value]))
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

    /// `text` with every declared and learned value, in every form, replaced by
    /// ``Redaction/placeholder``: one pass over the text's UTF-8 bytes (``SecretMatcher``).
    /// - Parameter text: Any text.
    /// - Returns: The text without the values.
    func redactValues(in text: String) -> String {
        state.withLock { $0.matcher }.redact(text)
    }

    /// `data` with every declared and learned value replaced, as bytes in UTF-8 (which ASCII, Latin-1
    /// and EUC-KR text share for a key's characters) and in UTF-16 of either byte order.
    func redactValues(in data: Data) -> Data {
        state.withLock { $0.matcher }.redact(data)
    }

    /// Whether `text` carries a declared or learned value in any form.
    func isValueFound(in text: String) -> Bool {
        state.withLock { $0.matcher }.isFound(in: text)
    }

    /// Whether `data` carries a declared or learned value in any form and encoding.
    func isValueFound(in data: Data) -> Bool {
        state.withLock { $0.matcher }.isFound(in: data)
    }

    /// `text` with every declared value (not a learned one) replaced: what a recording's match key
    /// shows, the same whatever earlier requests taught the store.
    func redactDeclaredValues(in text: String) -> String {
        state.withLock { $0.declaredMatcher }.redact(text)
    }

    /// The number of learned values kept (for tests).
    var learnedCount: Int { state.withLock { $0.learned.count } }

    /// Learns the value of every field of `request` the rule names as a secret's (``SecretRule``: a
    /// declared or credential-named header or query item, a cookie named like a session's, a password in
    /// the URL) and marks each in use until ``release(_:)``: what a provider does before each attempt. A
    /// value in use is never pushed out by newer ones.
    /// - Returns: The values learned, to release when the request ends.
    @discardableResult
    func use(_ request: URLRequest) -> [String] {
        var values: [String] = []
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            if name.isHeaderName("Cookie") {
                values += Self.cookies(value).filter { SecretRule.verdict(cookieName: $0.name).isLearned }
                    .map(\.value)
            } else if SecretRule.verdict(headerName: name).isLearned {
                values += Self.headerForms(of: value)
            }
        }
        // Most requests carry no query and no password: no parse for them.
        if let url = request.url, url.query != nil || url.password != nil,
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        {
            for item in components.queryItems ?? [] where SecretRule.verdict(queryName: item.name).isLearned {
                if let value = item.value { values.append(value) }
            }
            if let password = components.password { values.append(password) }
        }
        values = values.filter { $0.count >= Self.shortestValue }
        guard !values.isEmpty else { return [] }
        state.withLock { state in
            for value in values {
                state.inUse[value, default: 0] += 1
                state.add(value, pinned: false)
            }
        }
        return values
    }

    /// Ends the use of values ``use(_:)`` returned: each is the newest learned value again, so it stays
    /// hidden for the next ``valueLimit`` values learned.
    func release(_ values: [String]) {
        guard !values.isEmpty else { return }
        state.withLock { state in
            for value in values {
                guard let count = state.inUse[value] else { continue }
                state.inUse[value] = count > 1 ? count - 1 : nil
                if state.learned.contains(value) { state.add(value, pinned: false) }
            }
            state.trimLearned()
        }
    }

    /// Each cookie's name and value in a `Cookie` header's `name=value; name=value`.
    static func cookies(_ header: String) -> [(name: String, value: String)] {
        header.split(separator: ";").compactMap { pair in
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            return (
                pair[..<equals].trimmingCharacters(in: .whitespaces),
                pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            )
        }
    }

    /// Declares a header's value, and the token after its scheme (`Bearer abc…`: `abc…` too).
    func declareHeaderValue(_ value: String, pinned: Bool = true) {
        for form in Self.headerForms(of: value) { declare(value: form, pinned: pinned) }
    }

    /// A header's value, and the token after its authentication scheme (`Bearer abc…`: `abc…` too).
    private static func headerForms(of value: String) -> [String] {
        guard let space = value.firstIndex(of: " ") else { return [value] }
        return [value, String(value[value.index(after: space)...])]
    }
}
