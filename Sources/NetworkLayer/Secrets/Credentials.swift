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
/// and your code may call ``declare(headerNames:queryNames:)`` and ``declare(value:)``.
///
/// One rule says what is secret, and everything that hides, leaves out, refuses or learns a credential
/// asks it: the redirect guard (a secret header never follows a redirect to another origin), a background
/// session's refusal, the HTTP cache, ``Redaction`` and so ``LoggingMiddleware``, error descriptions,
/// events, cURL and ``RecordReplaySession``. A header, query item or form field is secret when its name
/// was declared or looks like a credential's (``Redaction``'s fragments: the fallback for names nobody
/// declared); every cookie is, where a `Cookie` field is shown. Every attempt a provider sends, as its
/// session sends it (the configuration's headers and stored cookies included), teaches the store the
/// value of every header and query item declared or named as a credential's (`apiKey`, `X-Api-Key`,
/// not `keyword`), of each cookie named like a session's (`sid`, `PHPSESSID`), the token after `Bearer`
/// and a URL's password; a form or JSON body's fields are hidden by name where a body is shown (cURL),
/// not learned. A value the store holds is hidden wherever it appears: a body that echoes it, a `Link`
/// header repeating the query, text in UTF-8, UTF-16 (with or without a byte-order mark) or a charset
/// that keeps ASCII as it is (an ASCII value in Latin-1 or EUC-KR text). Only a recording's match key
/// tells names apart: it leaves out a declared query item and one named as a credential (`key`,
/// `serviceKey`, `access_key`, `PHPSESSID`…), and keeps one whose name only begins with a secret's word
/// as a hash of its value, so `?keyword=apple` and `?keyword=banana` are two recordings; it hides
/// declared values only, never learned ones, so a key does not depend on what earlier requests taught.
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
/// push a declared one out; a value a running request carries is not pushed out before the request
/// ends (the learned values then exceed the limit by at most those of the requests running). A value
/// shorter than ``shortestValue`` characters is hidden by its field's name only, since replacing it in
/// free text would hide ordinary words and numbers. A value is searched for as sent, percent-encoded
/// (hex in either case), form-encoded, with `/` escaped as JSON writes it, and as JSON writers escape
/// it (`\"` and `\\`, and characters past ASCII kept or as `\u` with hex in either case), in one pass
/// over the text's bytes (values that share their first 8 bytes are compared one by one where that
/// prefix occurs).
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
