import Foundation

/// Hides secrets wherever NetworkLayer renders a request: log lines, error descriptions, recordings.
///
/// One routine, used everywhere: a header is secret when its name looks like a credential, a query
/// parameter when its name looks like a key, and free text (an underlying error's description, which
/// may carry the failing URL) has both kinds of value replaced by `REDACTED`.
/// ```swift
/// Redaction.redact(URL(string: "https://api.example.com/a?key=abc&day=1"))  // …/a?key=REDACTED&day=1
/// Redaction.redact(["X-Api-Key": "abc", "Accept": "*/*"])                 // ["X-Api-Key": "REDACTED", …]
/// ```
public enum Redaction {
    /// Fragments that make a header's name look like a credential, compared case-insensitively:
    /// `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `X-Api-Key`, `X-Auth-Token`, ….
    public static let sensitiveHeaderFragments = [
        "auth", "cookie", "key", "token", "secret", "password", "signature", "credential", "session",
    ]
    /// Fragments that make a query parameter's name look secret, compared case-insensitively.
    public static let sensitiveQueryFragments = ["key", "token", "secret", "password", "signature"]
    /// What a hidden value is replaced with.
    public static let placeholder = "REDACTED"

    /// Whether a header field with this name carries a credential.
    /// - Parameter name: The field's name, in any case.
    /// - Returns: `true` for `Authorization`, `Cookie`, `X-Api-Key` and the like.
    public static func isSensitive(headerName name: String) -> Bool {
        let lowered = name.lowercased()
        return sensitiveHeaderFragments.contains(where: lowered.contains)
    }

    /// Whether a query parameter with this name carries a secret.
    /// - Parameter name: The parameter's name, in any case.
    /// - Returns: `true` for `key`, `serviceKey`, `access_token` and the like.
    public static func isSensitive(queryName name: String) -> Bool {
        let lowered = name.lowercased()
        return sensitiveQueryFragments.contains(where: lowered.contains)
    }

    /// `url` with the values of secret-looking query parameters, and any password in the URL, replaced.
    /// - Parameter url: The URL to show.
    /// - Returns: The URL's text, safe to log.
    public static func redact(_ url: URL?) -> String {
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
        return components.string ?? redact(text: url.absoluteString)
    }

    /// `headers` with the values of credential-like fields replaced.
    /// - Parameter headers: The header fields.
    /// - Returns: The fields, safe to log or record.
    public static func redact(_ headers: [String: String]) -> [String: String] {
        headers.reduce(into: [:]) { result, field in
            result[field.key] = isSensitive(headerName: field.key) ? placeholder : field.value
        }
    }

    /// `text` with every `name=value` whose name looks secret (as in a query string) and every
    /// `Name: value` whose name looks like a credential header (as in a dump of headers or user info)
    /// given a hidden value.
    /// - Parameter text: Any text: an error's description, a log line.
    /// - Returns: The text, safe to show.
    public static func redact(text: String) -> String {
        var result = text
        for (expression, template) in textRules {
            let range = NSRange(result.startIndex..., in: result)
            result = expression.stringByReplacingMatches(in: result, range: range, withTemplate: template)
        }
        return result
    }

    /// The rules of ``redact(text:)``: query-style pairs, then header-style lines.
    private static let textRules: [(NSRegularExpression, String)] = {
        let query = sensitiveQueryFragments.joined(separator: "|")
        let header = sensitiveHeaderFragments.joined(separator: "|")
        let rules = [
            // name=value in a query string or a form: the value runs to the next separator.
            (
                #"(?i)([A-Za-z0-9_.~-]*(?:"# + query + #")[A-Za-z0-9_.~-]*=)[^&#\s"'<>,;)]*"#,
                "$1" + placeholder
            ),
            // scheme://user:password@host
            (#"(://[^/\s:@]*:)[^@/\s]*@"#, "$1" + placeholder + "@"),
            // "Name": "value" and Name: value, as headers print in dictionaries and dumps.
            (
                #"(?i)("?[A-Za-z0-9-]*(?:"# + header + #")[A-Za-z0-9-]*"?\s*:\s*)("[^"]*"|[^,;\r\n}\]]*)"#,
                "$1" + placeholder
            ),
        ]
        return rules.compactMap { pattern, template in
            // The patterns are constants; one that failed to compile would be a bug caught by the tests.
            (try? NSRegularExpression(pattern: pattern)).map { ($0, template) }
        }
    }()
}
