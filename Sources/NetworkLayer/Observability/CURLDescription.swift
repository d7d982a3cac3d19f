import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Redaction {
    /// `request` as a `curl` command to paste into a terminal, with secrets hidden as everywhere else:
    /// credential-like headers, key-like query values and URL passwords become `REDACTED`, and so do the
    /// values of key-like fields in a form or JSON body.
    ///
    /// ```
    /// curl -X POST 'https://api.example.com/v1/movies?key=REDACTED' \
    ///   -H 'Authorization: REDACTED' \
    ///   -H 'Content-Type: application/json' \
    ///   --data-raw '{"password":"REDACTED","title":"Wonka"}'
    /// ```
    ///
    /// Every argument is quoted for a POSIX shell; one holding control characters (a hostile header, an
    /// escape sequence in a body) is written with `$'…'` escapes, so printing the command cannot drive a
    /// terminal. Headers are sorted by name. A JSON body is shown as sent unless a field was hidden (then
    /// re-serialized with sorted keys). A multipart body, a body that is not UTF-8 text, or one over
    /// 64 KiB is replaced by a comment giving its size.
    /// - Parameter request: The request to render.
    /// - Returns: The command, over several lines joined with ` \` line continuations.
    public static func cURL(_ request: URLRequest) -> String {
        let method = request.httpMethod ?? "GET"
        let plainMethod = method.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }
        let flag = method == "GET" ? "" : " -X " + (plainMethod ? method : quote(method))
        var lines = ["curl\(flag) \(quote(redact(request.url)))"]
        let headers = redact(request.allHTTPHeaderFields ?? [:]).sorted {
            $0.key.lowercased() < $1.key.lowercased()
        }
        for (name, value) in headers {
            lines.append("  -H \(quote("\(name): \(value)"))")
        }
        if let body = request.httpBody, !body.isEmpty {
            let contentType = request.value(forHTTPHeaderField: "Content-Type") ?? ""
            if contentType.lowercased().hasPrefix("multipart/") {
                // A form's text fields are not name=value text: shown, a password field would leak.
                lines.append("  --data-binary @body  # multipart form, \(body.count) bytes, not shown")
            } else if body.count <= 64 * 1024, BodyText.isPlainUTF8([UInt8](body)),
                let text = String(data: body, encoding: .utf8)
            {
                lines.append("  --data-raw \(quote(redact(body: text, contentType: contentType)))")
            } else {
                lines.append("  --data-binary @body  # \(body.count) bytes, not shown")
            }
        }
        return lines.joined(separator: " \\\n")
    }

    /// A body's text with secrets hidden: key-like fields of a form or of JSON, and `name=value` /
    /// `Name: value` patterns in any other text.
    static func redact(body: String, contentType: String) -> String {
        let type = contentType.lowercased()
        if type.hasPrefix("application/x-www-form-urlencoded") {
            // Split on scalars, not characters: a prepended mark (U+0601) before `&` would join it into
            // one grapheme, and the field after it, a password, would pass as part of the one before.
            return body.unicodeScalars.split(separator: "&", omittingEmptySubsequences: false).map { field in
                let name = String(
                    field.split(separator: "=", maxSplits: 1).first ?? Substring.UnicodeScalarView())
                let decoded = name.removingPercentEncoding ?? name
                return isSensitive(fieldName: decoded)
                    ? "\(name)=\(placeholder)" : Credentials.redactValues(in: String(field))
            }.joined(separator: "&")
        }
        if type.contains("json"), let data = body.data(using: .utf8),
            let json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        {
            var hidden = false
            let redacted = redact(json: json, hidden: &hidden)
            // Re-serialized (keys sorted) only when something was hidden; otherwise the body as sent.
            guard hidden,
                let text = try? JSONSerialization.data(
                    withJSONObject: redacted,
                    options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
            else { return hidden ? placeholder : redact(text: body) }
            return Credentials.redactValues(in: String(decoding: text, as: UTF8.self))
        }
        return redact(text: body)
    }

    /// Whether a body field with this name is secret, as a query parameter or a header would be
    /// (``SecretRule``).
    private static func isSensitive(fieldName name: String) -> Bool {
        SecretRule.verdict(fieldName: name).isSecret
    }

    /// A parsed JSON value with the values of key-like object fields replaced, at any depth.
    private static func redact(json: Any, hidden: inout Bool) -> Any {
        switch json {
        case let object as [String: Any]:
            var redacted: [String: Any] = [:]
            for (name, value) in object {
                if isSensitive(fieldName: name) {
                    redacted[name] = placeholder
                    hidden = true
                } else {
                    redacted[name] = redact(json: value, hidden: &hidden)
                }
            }
            return redacted
        case let array as [Any]:
            return array.map { redact(json: $0, hidden: &hidden) }
        default:
            return json
        }
    }

    /// `text` as one POSIX shell word: single-quoted, or `$'…'`-quoted with escapes when it holds control
    /// characters.
    static func quote(_ text: String) -> String {
        let hasControl = text.unicodeScalars.contains { $0.properties.generalCategory == .control }
        guard hasControl else { return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        var quoted = "$'"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": quoted += "\\\\"
            case "'": quoted += "\\'"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case _ where scalar.properties.generalCategory == .control:
                quoted +=
                    scalar.value < 0x80
                    ? String(format: "\\x%02x", scalar.value) : String(format: "\\u%04x", scalar.value)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "'"
    }
}

extension Endpoint {
    /// This endpoint's request as a redacted `curl` command; see ``Redaction/cURL(_:)``.
    /// - Returns: The command, or a comment saying why the request cannot be built.
    public func cURLDescription() -> String {
        do {
            return Redaction.cURL(try makeRequest())
        } catch {
            return "# \(error.description)"
        }
    }
}
