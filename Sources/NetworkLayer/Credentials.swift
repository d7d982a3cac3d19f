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

    /// Declares a header's value, and the token after its scheme.
    static func declareHeaderValue(_ value: String, pinned: Bool = true) {
        CredentialStore.shared.declareHeaderValue(value, pinned: pinned)
    }

    /// Learns a value that changes (a token): kept among the newest learned values.
    static func learn(value: String) {
        CredentialStore.shared.declare(value: value, pinned: false)
    }
}
