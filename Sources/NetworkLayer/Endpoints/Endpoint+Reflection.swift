import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What `print`, `dump` and a debugger show of endpoints and groups: their parts with every credential
/// hidden as ``Redaction`` hides it (credential headers and query items by name, declared values
/// anywhere), so a log line made with `"\(endpoint)"` keeps no key. A body is shown by its kind only.
extension Endpoint: CustomReflectable {
    /// The endpoint's parts, credentials hidden.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "baseURL": Redaction.redact(baseURL),
                "path": Credentials.redactValues(in: path),
                "method": method.rawValue,
                "queryItems": RedactedParts.queryItems(queryItems),
                "headers": Redaction.redact(headers),
                "body": body.map { "\(type(of: $0))" } ?? "none",
                "timeout": timeout,
                "deadline": deadline as Any,
                "cachePolicy": cachePolicy,
            ],
            displayStyle: .struct)
    }
}

extension EndpointGroup: CustomReflectable {
    /// The group's parts, credentials hidden.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "baseURL": Redaction.redact(baseURL),
                "queryItems": RedactedParts.queryItems(queryItems),
                "headers": Redaction.redact(headers),
                "timeout": timeout,
            ],
            displayStyle: .struct)
    }
}

/// Query items as `name=value` text, a credential's value hidden.
enum RedactedParts {
    static func queryItems(_ items: [URLQueryItem]) -> [String] {
        items.map { item in
            let value = item.value.map {
                Redaction.isSensitive(queryName: item.name) ? Redaction.placeholder : $0
            }
            return Credentials.redactValues(in: item.name + (value.map { "=" + $0 } ?? ""))
        }
    }
}
