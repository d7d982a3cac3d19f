import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one place NetworkLayer recognises a secret.
///
/// A credential is declared once, where it is set: an ``AuthorizationMiddleware`` declares its header
/// field and each token it adds; an ``EndpointGroup`` its `credentialQueryItems` and
/// `credentialHeaders`; a provider the names in its configuration
/// (``NetworkProvider/Configuration/credentialHeaders``, ``NetworkProvider/Configuration/credentialQueryItems``);
/// and your code may call ``declare(headerNames:queryNames:)`` and ``declare(value:)``. Every attempt a
/// provider sends teaches the store the values its declared fields carry.
///
/// Everything that decides what is secret asks this store: the redirect guard (a declared header never
/// follows a redirect to another origin), a background session's refusal, ``Redaction`` and so
/// ``LoggingMiddleware``, error descriptions and ``RecordReplaySession`` (by name, and by value wherever the
/// value appears: a body that echoes it, a `Link` header repeating the query, text in UTF-8, UTF-16 or a
/// charset that keeps ASCII as it is, such as Latin-1 or EUC-KR). A
/// name nobody declared still counts as secret when it looks like one (``Redaction``'s fragments): the
/// fallback. Only a recording's match key tells the two apart: it leaves out a declared query item (and
/// one named as a credential, `key`, `serviceKey`, `access_key`…), and keeps one whose name only begins
/// with a secret's word as a hash of its value, so `?keyword=apple` and `?keyword=banana` are two
/// recordings.
///
/// ```swift
/// let exchange = EndpointGroup(
///     baseURL: URL(string: "https://api.exchange.example")!,
///     credentialHeaders: ["CB-ACCESS-PASSPHRASE": passphrase])
/// ```
///
/// The store is the process's: declarations are never removed (a name declared is a secret's name for
/// good). It keeps the newest ``valueLimit`` declared values, and apart from them the newest
/// ``valueLimit`` values learned from attempts and tokens, so values that change on every request never
/// push a declared one out. A value shorter than ``shortestValue`` characters is hidden by its field's
/// name only, since replacing it in free text would hide ordinary words and numbers. A value is searched
/// for as sent, percent-encoded (hex in either case), form-encoded and with `/` escaped as JSON writes it.
public enum Credentials {
    /// The most values kept of each kind, declared and learned: the newest 64 (a refreshed token
    /// replaces an old one).
    public static let valueLimit = CredentialStore.valueLimit
    /// The shortest value hidden wherever it appears: 8 characters.
    public static let shortestValue = CredentialStore.shortestValue

    /// Declares header fields and query items whose values are credentials, compared without case.
    /// - Parameters:
    ///   - headerNames: Header field names, such as `CB-ACCESS-PASSPHRASE`.
    ///   - queryNames: Query item names, such as `serviceKey`.
    public static func declare(
        headerNames: some Sequence<String> = [String](), queryNames: some Sequence<String> = [String]()
    ) {
        CredentialStore.shared.declare(headerNames: headerNames, queryNames: queryNames)
    }

    /// Declares a credential's value: hidden wherever NetworkLayer writes it (at least ``shortestValue``
    /// characters long; shorter ones are ignored).
    /// - Parameter value: The secret, as sent.
    public static func declare(value: String) {
        CredentialStore.shared.declare(value: value)
    }

    /// Whether a header field with this name was declared a credential.
    /// - Parameter name: The field's name, in any case.
    public static func isDeclared(headerName name: String) -> Bool {
        CredentialStore.shared.isDeclared(headerName: name)
    }

    /// Whether a query item with this name was declared a credential.
    /// - Parameter name: The item's name, in any case.
    public static func isDeclared(queryName name: String) -> Bool {
        CredentialStore.shared.isDeclared(queryName: name)
    }

    /// `text` with every declared value (and its percent-encoded form) replaced by
    /// ``Redaction/placeholder``.
    /// - Parameter text: Any text.
    /// - Returns: The text without the values.
    public static func redactValues(in text: String) -> String {
        CredentialStore.shared.redactValues(in: text)
    }

    /// `data` with every declared value replaced, as bytes in UTF-8 and UTF-16.
    static func redactValues(in data: Data) -> Data {
        CredentialStore.shared.redactValues(in: data)
    }

    /// Learns the values `request` carries in declared fields.
    static func learnValues(from request: URLRequest) {
        CredentialStore.shared.learnValues(from: request)
    }

    /// Declares a header's value, and the token after its scheme.
    static func declareHeaderValue(_ value: String, pinned: Bool = true) {
        CredentialStore.shared.declareHeaderValue(value, pinned: pinned)
    }

    /// Learns a value that changes (a token): kept among the newest learned values.
    static func learn(value: String) {
        CredentialStore.shared.declare(value: value, pinned: false)
    }
}

/// The store behind ``Credentials``: the process has one (``shared``); tests make their own.
final class CredentialStore: Sendable {
    static let shared = CredentialStore()

    /// The most values kept: the newest 64 (a refreshed token replaces an old one).
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
        /// Every form of every value, searched for in text: rebuilt when the values change.
        var forms: [String] = []

        mutating func add(_ value: String, pinned isPinned: Bool) -> Bool {
            if isPinned {
                guard !pinned.contains(value) else { return false }
                pinned.append(value)
                if pinned.count > CredentialStore.valueLimit { pinned.removeFirst() }
            } else {
                if let index = learned.firstIndex(of: value) {
                    // Seen again: now the newest.
                    guard index != learned.count - 1 else { return false }
                    learned.remove(at: index)
                }
                learned.append(value)
                if learned.count > CredentialStore.valueLimit { learned.removeFirst() }
            }
            forms = (pinned + learned).flatMap(CredentialStore.forms)
            return true
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
        state.withLock { _ = $0.add(value, pinned: pinned) }
    }

    /// The forms a value is searched for in: as sent, percent-encoded (RFC 3986's unreserved characters
    /// kept, hex in either case), form-encoded (`+` for a space), and with `/` escaped as JSON writes it.
    static func forms(of value: String) -> [String] {
        var unreserved = CharacterSet.alphanumerics.intersection(
            CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        unreserved.insert(charactersIn: "-._~")
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
