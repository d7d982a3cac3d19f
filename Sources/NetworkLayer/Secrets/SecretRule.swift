import Foundation

/// The one rule for what is secret: every part of NetworkLayer that hides, leaves out, refuses or learns
/// a credential asks it, for a header's name, a query item's name, a cookie's name, a path or a value
/// (the redirect guard, a background session's refusal, the HTTP cache's partitions and stored headers,
/// ``Redaction`` and so logs, errors, events and recordings, a recording's match key, cURL, the
/// background journal, `StubSession.requests`, and the values learned from each attempt).
enum SecretRule {
    /// How surely a name is a secret's, weakest first.
    enum Verdict: Int, Comparable {
        /// Not a secret's name.
        case notSecret
        /// The name only contains a secret's word at the start of a longer one (`keyword`, `tokenizer`):
        /// hidden wherever shown, kept as a hash of its value in a recording's match key.
        case resemblesSecret
        /// The name is a secret's by its words (`apiKey`, `access_token`, `PHPSESSID`, `X-Auth-Token`).
        case namesSecret
        /// The name was declared a credential's (``Credentials``).
        case declared

        /// Whether the name's value is hidden where the field is shown.
        var isSecret: Bool { self != .notSecret }
        /// Whether the field's value is learned, and so hidden wherever it appears: a name declared or
        /// named as a secret's, not one that only resembles one (`keyword=pineapple` stays searchable
        /// text, and two recordings).
        var isLearned: Bool { self >= .namesSecret }

        static func < (lhs: Verdict, rhs: Verdict) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What the rule says of a header field's name: declared, or containing any of
    /// ``Redaction/sensitiveHeaderFragments`` (every `Cookie` and `Authorization` field).
    static func verdict(headerName name: String) -> Verdict {
        if Credentials.isDeclared(headerName: name) { return .declared }
        let lowered = name.lowercased()
        return contains(lowered, anyOf: headerFragments) ? .namesSecret : .notSecret
    }

    /// What the rule says of a query item's name (or a form field's): declared; one of
    /// ``Redaction/sensitiveQueryNames``, or a name where one of ``Redaction/sensitiveQueryFragments``
    /// ends a word (`key`, `apiKey`, `access_key`, `X-Amz-Signature`, `session_id`, `PHPSESSID`); or one
    /// where such a fragment only begins a longer word (`keyword`, `secretary`).
    static func verdict(queryName name: String) -> Verdict {
        if Credentials.isDeclared(queryName: name) { return .declared }
        let lowered = name.lowercased()
        if Redaction.sensitiveQueryNames.contains(lowered) { return .namesSecret }
        guard contains(lowered, anyOf: queryFragments) else { return .notSecret }
        let original = Array(name.unicodeScalars)
        let scalars = Array(lowered.unicodeScalars)
        // A name whose case mapping changes its length (rare, non-ASCII) is judged by containment only.
        guard original.count == scalars.count else { return .namesSecret }
        for fragment in Redaction.sensitiveQueryFragments {
            let needle = Array(fragment.unicodeScalars)
            guard needle.count <= scalars.count else { continue }
            for start in 0...(scalars.count - needle.count)
            where Array(scalars[start..<start + needle.count]) == needle {
                let end = start + needle.count
                // The word ends with the fragment: the name's end, or anything but a lowercase letter next.
                if end == scalars.count || !("a"..."z").contains(original[end]) { return .namesSecret }
            }
        }
        return .resemblesSecret
    }

    private static let headerFragments = Redaction.sensitiveHeaderFragments.map { Array($0.utf8) }
    private static let queryFragments = Redaction.sensitiveQueryFragments.map { Array($0.utf8) }

    /// Whether `text` contains any of `fragments`, compared as UTF-8 bytes: no bridging, no allocation
    /// (this runs for every `name=` and `Name:` in a body being redacted).
    private static func contains(_ text: String, anyOf fragments: [[UInt8]]) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            fragments.contains { fragment in
                guard fragment.count <= bytes.count else { return false }
                return (0...(bytes.count - fragment.count)).contains { start in
                    fragment.indices.allSatisfy { bytes[start + $0] == fragment[$0] }
                }
            }
        }
    }

    /// What the rule says of a cookie's name: every cookie is a credential where a whole `Cookie` or
    /// `Set-Cookie` field is shown (hidden by the field's name, as the HTTP cache has always counted
    /// them), so at least ``Verdict/resemblesSecret``; a cookie named as a secret's (`sid`, `PHPSESSID`,
    /// `session_token`) is ``Verdict/namesSecret`` and its value is learned. Values of other cookies
    /// (`consent=accepted`) are not, so ordinary words are not hidden wherever they appear.
    static func verdict(cookieName name: String) -> Verdict {
        max(verdict(queryName: name), .resemblesSecret)
    }

    /// What the rule says of a field whose kind is unknown (a cURL form field, a `name=value` in free
    /// text): the stronger of the header and query verdicts.
    static func verdict(fieldName name: String) -> Verdict {
        max(verdict(queryName: name), verdict(headerName: name))
    }

    /// Whether `text` (a path, a header's value, a query item's value) carries a declared or learned
    /// value, in any of the forms one is searched for in.
    static func carriesSecretValue(_ text: String) -> Bool {
        CredentialStore.shared.isValueFound(in: text)
    }

    /// Whether `data` (a body) carries a declared or learned value, in any form and encoding.
    static func carriesSecretValue(_ data: Data) -> Bool {
        CredentialStore.shared.isValueFound(in: data)
    }

    /// Whether `text` carries a declared value (not a learned one): what a recording's match key asks,
    /// so that the key never depends on what earlier requests taught the store.
    static func carriesDeclaredValue(_ text: String) -> Bool {
        CredentialStore.shared.redactDeclaredValues(in: text) != text
    }
}
