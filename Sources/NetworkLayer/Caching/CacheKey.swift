import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a request's answer is stored, with no secret and no path in it: a partition, the origin, and a
/// digest of the rest of the URL.
///
/// The request is the one the session will send (``Transport/asSent(_:)``: with its configuration's
/// headers and every cookie its storage attaches), so what a session adds below the pipeline counts.
/// The partition is the app's (``HTTPCache``'s `partition`, when it names one for the request, together
/// with the credentials the URL carries, which tell resources apart), else
/// `public` for a request that carries no credential, and otherwise the first 32 hexadecimal digits of the
/// SHA-256 of its credentials (each sorted, with its name): its credential headers (`Cookie` among them,
/// so every cookie counts), credential query items, a user name and password in its URL, matrix
/// parameters in its path (`;jsessionid=…`), and a declared value in its path. So after a logout and
/// another login the new user's requests find none of the old one's answers. A credential is what
/// ``Redaction/isSensitive(headerName:)`` or ``Redaction/isSensitive(queryName:)`` names: declared, or
/// named like one.
///
/// The address keeps the scheme, host and port in clear, and the path and remaining query only as the
/// first 32 hexadecimal digits of their SHA-256: a token in a path (`/bot<TOKEN>/…`, declared or not) or
/// a query item whose name gives no hint never reaches a store's file.
struct CacheKey: Sendable, Hashable {
    /// The store's key: `<partition> <address>`.
    let value: String
    /// The URL without its credentials, shared by every partition: `<origin> <digest>`.
    let address: String
    /// The key under which an unsafe method's success at this address is noted (``HTTPCache``'s
    /// invalidation, which reaches every partition).
    let invalidationKey: String

    /// The key of `request` as it will be sent, in the app's `partition` when it names one; `nil` for a
    /// request without a URL. With a `memo`, what was worked out for the same URL (and the same digests)
    /// is taken from it while ``Credentials`` still says the same of every name and text, and what is
    /// worked out is kept there unless the request began (in cache generation `generation`) before the
    /// memo was last emptied.
    init?(_ request: URLRequest, partition: String? = nil, memo: Memo? = nil, generation: Int = 0) {
        guard let url = request.url,
            let location = memo?.location(of: url, generation: generation) ?? Location(url)
        else { return nil }
        var headerSecrets: [String] = []
        for (name, field) in request.allHTTPHeaderFields ?? [:] where Redaction.isSensitive(headerName: name)
        {
            headerSecrets.append("h:\(name.lowercased())=\(field)")
        }
        let digest = { (text: String) in memo?.digest(of: text, generation: generation) ?? Self.digest(text) }
        address = location.address
        invalidationKey = location.invalidationKey
        // An app's partition replaces the credentials the request's headers carry, never what its URL
        // carries: `?pageToken=A` and `?pageToken=B`, `;v=2` and `;v=3` stay two answers.
        let owner: String? =
            if let partition {
                "app-" + digest(([partition] + location.secrets.sorted()).joined(separator: "\n"))
            } else if location.secrets.isEmpty && headerSecrets.isEmpty {
                nil
            } else {
                digest((location.secrets + headerSecrets).sorted().joined(separator: "\n"))
            }
        // Most requests carry no credential: their whole key was made with the location.
        value = owner.map { "\($0) \(location.address)" } ?? location.publicKey
    }

    /// What a URL alone gives a key: its address, and the credentials it carries (each with its kind).
    struct Location: Sendable {
        /// `<origin> <digest of the path and the query without credentials>`.
        let address: String
        /// The URL's credentials: query items named as secrets, a user and password, matrix parameters,
        /// a path carrying a declared value.
        let secrets: [String]
        /// The key of a request that carries no credential: `public <address>`.
        let publicKey: String
        /// ``CacheKey/invalidationKey`` of every key at this address.
        let invalidationKey: String

        /// The location of `url`, resolved against its base; `nil` when it cannot be parsed.
        init?(_ url: URL) {
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
            var secrets: [String] = []
            if let items = components.percentEncodedQueryItems {
                let kept = items.filter { item in
                    guard Redaction.isSensitive(queryName: item.name.removingPercentEncoding ?? item.name)
                    else { return true }
                    secrets.append("q:\(item.name)=\(item.value ?? "")")
                    return false
                }
                components.percentEncodedQueryItems = kept.isEmpty ? nil : kept
            }
            if let user = components.percentEncodedUser {
                secrets.append("u:\(user):\(components.percentEncodedPassword ?? "")")
            }
            var path = components.percentEncodedPath
            if path.utf8.contains(UInt8(ascii: ";")) {
                // Matrix parameters (`/x;jsessionid=…`) count in the partition, not in the address.
                secrets.append("m:" + path)
                path = path.split(separator: "/", omittingEmptySubsequences: false)
                    .map { $0.prefix { $0 != ";" } }.joined(separator: "/")
            }
            var rest = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
            // A declared value in the path (a bot token, `/bot<TOKEN>/…`) counts in the partition.
            let hidden = Credentials.redactValues(in: rest)
            if hidden != rest {
                secrets.append("p:" + rest)
                rest = hidden
            }
            let scheme = components.scheme?.lowercased() ?? ""
            let host = components.percentEncodedHost?.lowercased() ?? ""
            let origin = "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
            address = "\(origin) \(CacheKey.digest(rest))"
            self.secrets = secrets
            publicKey = "public \(address)"
            invalidationKey = "invalidated \(address)"
        }
    }

    /// The first 32 hexadecimal digits of the SHA-256 of `text`.
    static func digest(_ text: String) -> String { String(SHA256.hex(text.utf8).prefix(32)) }

    /// The request's values of the header fields `names`, names lowercased: an absent field is an empty
    /// string; a credential's value (a field named like one, or one carrying a declared or learned
    /// value) its SHA-256.
    static func variants(named names: [String], in request: URLRequest) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            let field = request.value(forHTTPHeaderField: name) ?? ""
            let secret =
                !field.isEmpty
                && (Redaction.isSensitive(headerName: name) || SecretRule.carriesSecretValue(field))
            values[name] = secret ? "sha256:" + SHA256.hex(field.utf8) : field
        }
        return values
    }
}
