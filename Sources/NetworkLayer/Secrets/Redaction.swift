import Foundation

/// Hides secrets wherever NetworkLayer renders a request: log lines, error descriptions, recordings.
///
/// One routine, used everywhere: a header or query parameter is secret when it was declared a credential
/// (``Credentials``) or, as a fallback, when its name looks like one; free text (an underlying error's
/// description, which may carry the failing URL) has both kinds of value replaced by `REDACTED`; and a
/// declared credential's value is replaced wherever it appears.
/// ```swift
/// Redaction.redact(URL(string: "https://api.example.com/a?key=abc&day=1"))  // …/a?key=REDACTED&day=1
/// Redaction.redact(["X-Api-Key": "abc", "Accept": "*/*"])                 // ["X-Api-Key": "REDACTED", …]
/// ```
public enum Redaction {
    /// Fragments that make a header's name look like a credential, compared case-insensitively:
    /// `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `X-Api-Key`, `X-Auth-Token`, ….
    public static let sensitiveHeaderFragments = [
        "auth", "cookie", "key", "token", "secret", "password", "signature", "credential", "session",
        "sessid",
    ]
    /// Fragments that make a query parameter's name look secret, compared case-insensitively.
    public static let sensitiveQueryFragments = [
        "key", "token", "secret", "password", "passwd", "signature", "session", "credential", "sessid",
        "sessionid",
    ]
    /// Whole query parameter names that are secret, compared case-insensitively: short ones that would
    /// match everyday names as fragments (`auth` in `author`, `sig` in `design`). Firebase's `auth`,
    /// Azure SAS's `sig`, session ids.
    public static let sensitiveQueryNames: Set<String> = ["auth", "sig", "sid", "pass", "pwd", "jwt"]
    /// What a hidden value is replaced with.
    public static let placeholder = "REDACTED"

    /// Whether a header field with this name carries a credential: declared one (``Credentials``), or
    /// named like one.
    /// - Parameter name: The field's name, in any case.
    /// - Returns: `true` for a declared name, and for `Authorization`, `Cookie`, `X-Api-Key` and the like.
    public static func isSensitive(headerName name: String) -> Bool {
        SecretRule.verdict(headerName: name).isSecret
    }

    /// Whether a query parameter with this name carries a secret: declared one (``Credentials``), or
    /// named like one.
    /// - Parameter name: The parameter's name, in any case.
    /// - Returns: `true` for a declared name, and for `key`, `serviceKey`, `access_token`, `PHPSESSID`
    ///   and the like.
    public static func isSensitive(queryName name: String) -> Bool {
        SecretRule.verdict(queryName: name).isSecret
    }

    /// `url` with the values of secret query parameters (in its query or its fragment, as
    /// `#access_token=…`), any password in the URL, and any declared credential's value (in its path,
    /// say) replaced.
    /// - Parameter url: The URL to show.
    /// - Returns: The URL's text, safe to log.
    public static func redact(_ url: URL?) -> String {
        Credentials.redactValues(in: redactByName(url))
    }

    private static func redactByName(_ url: URL?) -> String {
        guard let url else { return "<no URL>" }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return redact(text: url.absoluteString)
        }
        if components.password != nil { components.password = placeholder }
        if let items = components.percentEncodedQueryItems {
            components.percentEncodedQueryItems = items.map { item in
                isSensitive(queryName: item.name) ? URLQueryItem(name: item.name, value: placeholder) : item
            }
        }
        // A fragment can carry a token too (OAuth's implicit flow: `#access_token=…`).
        if let fragment = components.percentEncodedFragment {
            // By name only: replacing a value here could leave a `%` without its two digits, which the
            // setter traps on; values are hidden in the whole text afterwards.
            components.percentEncodedFragment = redactByName(text: fragment)
        }
        return components.string ?? redact(text: url.absoluteString)
    }

    /// `headers` with the values of credential fields replaced, and inside every other field what free
    /// text has hidden (``redact(text:)``): a `Link` or `Location` header repeating a `key=…` query item,
    /// a declared or learned value.
    /// - Parameter headers: The header fields.
    /// - Returns: The fields, safe to log or record.
    public static func redact(_ headers: [String: String]) -> [String: String] {
        headers.reduce(into: [:]) { result, field in
            result[field.key] = isSensitive(headerName: field.key) ? placeholder : redact(text: field.value)
        }
    }

    /// `text` with every `name=value` whose name is secret (as in a query string), every `Name: value`
    /// whose name is a credential header's (as in a dump of headers or user info), every password in a
    /// `scheme://user:password@host`, and every declared credential's value given a hidden value.
    ///
    /// One pass over the text, in time linear in its length whatever it holds (a regular expression with
    /// these shapes backtracks badly on text such as `keykeykey…` with no `=`).
    /// - Parameter text: Any text: an error's description, a log line.
    /// - Returns: The text, safe to show.
    public static func redact(text: String) -> String {
        Credentials.redactValues(in: redactByName(text: text))
    }

    private static func redactByName(text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        // Where the run of query-name characters before `index` starts.
        var queryNameStart = 0
        while index < scalars.count {
            let scalar = scalars[index]
            output.append(scalar)
            index += 1
            if scalar == "=",
                isSensitive(queryName: String(String.UnicodeScalarView(scalars[queryNameStart..<index - 1])))
            {
                index = skipValue(scalars, from: index, until: queryValueEnds)
                output.append(contentsOf: placeholder.unicodeScalars)
            } else if scalar == ":", let name = headerName(scalars, before: index - 1),
                isSensitive(headerName: name)
            {
                while index < scalars.count, scalars[index].properties.isWhitespace {
                    output.append(scalars[index])
                    index += 1
                }
                if index < scalars.count, scalars[index] == "\"" {
                    let close = closingQuote(scalars, after: index)
                    output.append(contentsOf: ("\"" + placeholder + "\"").unicodeScalars)
                    index = min(close + 1, scalars.count)
                } else {
                    // A cookie header's value is every cookie to the end of the line, not the first.
                    let isCookie = name.lowercased().contains("cookie")
                    index = skipValue(scalars, from: index, until: isCookie ? lineEnds : headerValueEnds)
                    output.append(contentsOf: placeholder.unicodeScalars)
                }
            } else if scalar == ":", index + 1 < scalars.count, scalars[index] == "/",
                scalars[index + 1] == "/"
            {
                index = redactUserInfo(scalars, from: index, into: &output)
            }
            if !isQueryNameCharacter(scalar) { queryNameStart = index }
        }
        return String(output)
    }

    /// `scheme://user:password@` from just after the scheme's colon: copies `//user:`, hides the password
    /// (which may hold `#` or `?`; it ends at the `@`).
    private static func redactUserInfo(
        _ scalars: [Unicode.Scalar], from start: Int, into output: inout String.UnicodeScalarView
    ) -> Int {
        func endsAuthority(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "/" || scalar.properties.isWhitespace
        }
        var colon = start + 2
        while colon < scalars.count, scalars[colon] != ":", scalars[colon] != "@",
            !endsAuthority(scalars[colon])
        {
            colon += 1
        }
        guard colon < scalars.count, scalars[colon] == ":" else { return start }
        var at = colon + 1
        while at < scalars.count, scalars[at] != "@", !endsAuthority(scalars[at]) { at += 1 }
        guard at < scalars.count, scalars[at] == "@" else { return start }
        output.append(contentsOf: scalars[start...colon])
        output.append(contentsOf: placeholder.unicodeScalars)
        return at
    }

    /// The header-style name that ends just before `colon`, allowing white space and a closing quote
    /// between them (`"access_token" : …` as pretty-printed JSON writes it); `nil` when there is none.
    private static func headerName(_ scalars: [Unicode.Scalar], before colon: Int) -> String? {
        var end = colon
        while end > 0, scalars[end - 1].properties.isWhitespace { end -= 1 }
        if end > 0, scalars[end - 1] == "\"" { end -= 1 }
        var start = end
        while start > 0, isHeaderNameCharacter(scalars[start - 1]) || scalars[start - 1] == "_" { start -= 1 }
        guard start < end else { return nil }
        return String(String.UnicodeScalarView(scalars[start..<end]))
    }

    /// The quote that closes a quoted value whose opening quote is at `open`, past escaped ones (`\"`);
    /// the end of the text when there is none.
    private static func closingQuote(_ scalars: [Unicode.Scalar], after open: Int) -> Int {
        var index = open + 1
        while index < scalars.count {
            if scalars[index] == "\\" {
                index += 2
                continue
            }
            if scalars[index] == "\"" { return index }
            index += 1
        }
        return scalars.count
    }

    private static func lineEnds(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\r" || scalar == "\n"
    }

    private static func skipValue(
        _ scalars: [Unicode.Scalar], from start: Int, until ends: (Unicode.Scalar) -> Bool
    ) -> Int {
        var index = start
        while index < scalars.count, !ends(scalars[index]) { index += 1 }
        return index
    }

    private static func queryValueEnds(_ scalar: Unicode.Scalar) -> Bool {
        "&#\"'<>,;) \t\r\n".unicodeScalars.contains(scalar)
    }

    private static func headerValueEnds(_ scalar: Unicode.Scalar) -> Bool {
        ",;\r\n}]".unicodeScalars.contains(scalar)
    }

    private static func isQueryNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || "_.~-".unicodeScalars.contains(scalar)
    }

    private static func isHeaderNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || scalar == "-"
    }
}
