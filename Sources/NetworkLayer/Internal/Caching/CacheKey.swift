import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a request's answer is stored, with no secret in it: a partition and the URL without its
/// credentials.
///
/// The partition is the app's (``HTTPCache``'s `partition`, when it names one for the request), else
/// `public` for a request that carries no credential, and otherwise the first 32 hexadecimal digits of the
/// SHA-256 of its credentials (each sorted, with its name): its credential headers and query items, a
/// user name and password in its URL, a declared value in its path, and what its session adds below the
/// pipeline (its configuration's credential headers, its cookies for the URL). So after a logout and
/// another login the new user's requests find none of the old one's answers. A credential is what
/// ``Redaction/isSensitive(headerName:)`` or ``Redaction/isSensitive(queryName:)`` names: declared, or
/// named like one.
struct CacheKey: Sendable, Hashable {
    /// The store's key: `<partition> <URL>`.
    let value: String

    /// The key of `request`, whose session adds `added` (credentials as `name=value` lines), in the
    /// app's `partition` when it names one; `nil` for a request without a URL.
    init?(_ request: URLRequest, added: [String] = [], partition: String? = nil) {
        guard let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return nil }
        var secrets = added.map { "s:" + $0 }
        for (name, field) in request.allHTTPHeaderFields ?? [:] where Redaction.isSensitive(headerName: name)
        {
            secrets.append("h:\(name.lowercased())=\(field)")
        }
        if let items = components.percentEncodedQueryItems {
            let kept = items.filter { item in
                guard Redaction.isSensitive(queryName: item.name.removingPercentEncoding ?? item.name) else {
                    return true
                }
                secrets.append("q:\(item.name)=\(item.value ?? "")")
                return false
            }
            components.percentEncodedQueryItems = kept.isEmpty ? nil : kept
        }
        if let user = components.percentEncodedUser {
            secrets.append("u:\(user):\(components.percentEncodedPassword ?? "")")
            components.percentEncodedUser = nil
            components.percentEncodedPassword = nil
        }
        components.fragment = nil
        var address = components.string ?? url.absoluteString
        // A declared value in the path (a bot token, `/bot<TOKEN>/…`) is hidden in the key and counts in
        // the partition.
        let hidden = Credentials.redactValues(in: address)
        if hidden != address {
            secrets.append("p:" + address)
            address = hidden
        }
        let digest = { (text: String) in String(SHA256.hex(text.utf8).prefix(32)) }
        let owner =
            if let partition { "app-" + digest(partition) } else if secrets.isEmpty { "public" } else {
                digest(secrets.sorted().joined(separator: "\n"))
            }
        value = "\(owner) \(address)"
    }

    /// The request's values of the header fields `names`, names lowercased: an absent field is an empty
    /// string, a credential's value its SHA-256.
    static func variants(named names: [String], in request: URLRequest) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            let field = request.value(forHTTPHeaderField: name) ?? ""
            values[name] =
                Redaction.isSensitive(headerName: name) && !field.isEmpty
                ? "sha256:" + SHA256.hex(field.utf8) : field
        }
        return values
    }
}
