import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which answers are stored, and what of them (RFC 9111 sections 3 and 3.2).
extension CachedHTTPResponse {
    /// The most names a `Vary` may list; an answer varying on more is not stored.
    static let mostVaryNames = 32
    /// The most header bytes an answer may have; one with more is not stored.
    static let mostHeaderBytes = 64 << 10
    /// Fields never stored: cookies, hop-by-hop fields (RFC 9110 section 7.6.1).
    static let unstoredFields: Set<String> = [
        "set-cookie", "set-cookie2", "connection", "keep-alive", "proxy-authenticate", "proxy-authorization",
        "te", "trailer", "transfer-encoding", "upgrade",
    ]
    /// `value`, the value of the field `name`, with every credential in it hidden: a declared value
    /// (``Credentials``) or a credential query item (`?serviceKey=…` in a `Link` or `Content-Location`),
    /// so none reaches the store. An `ETag` is kept as it is: it is sent back to the server as it came.
    static func withoutCredentials(_ value: String, in name: String) -> String {
        name.isHeaderName("etag") ? value : Redaction.redact(text: value)
    }

    /// Fields a `304` may not change: they describe the stored body (RFC 9111 section 3.2).
    static let bodyFields: Set<String> = [
        "content-length", "content-type", "content-encoding", "content-range", "etag",
    ]

    /// The answer to store for `http` and `body`, the response to `request`; `nil` when RFC 9111 or this
    /// cache's limits say not to store it: a status no cache may store without being told, `no-store`,
    /// `Vary: *` or a `Vary` of more than ``mostVaryNames`` names, more than ``mostHeaderBytes`` of
    /// header fields, a field whose value or a body that carries a declared or learned credential
    /// value (an answer echoing the key is never written to the store).
    init?(
        storing http: HTTPURLResponse, body: Data, for request: URLRequest, requestDate: Date,
        responseDate: Date
    ) {
        guard Freshness.heuristicallyCacheable.contains(http.statusCode) else { return nil }
        var headers: [String: String] = [:]
        var headerBytes = 0
        for (name, value) in http.allHeaderFields {
            let name = "\(name)"
            let value = "\(value)"
            headerBytes += name.utf8.count + value.utf8.count
            guard headerBytes <= Self.mostHeaderBytes else { return nil }
            guard !Self.unstoredFields.contains(name.lowercased()), !Redaction.isSensitive(headerName: name)
            else { continue }
            // A declared or learned credential echoed back (an `ETag` that is the key): not stored at all.
            guard !SecretRule.carriesSecretValue(value) else { return nil }
            headers[name] = Self.withoutCredentials(value, in: name)
        }
        guard !SecretRule.carriesSecretValue(body) else { return nil }
        let fields = CachedHTTPResponse(
            statusCode: http.statusCode, headers: headers, body: Data(), requestDate: requestDate,
            responseDate: responseDate)
        guard !CacheControl(fields.header("cache-control")).noStore else { return nil }
        var varied: [String] = []
        if let vary = fields.header("vary") {
            for name in vary.split(separator: ",") {
                let name = Substring(name).trimmingSpaces.lowercased()
                guard name != "*", varied.count < Self.mostVaryNames else { return nil }
                if !name.isEmpty { varied.append(name) }
            }
        }
        self.init(
            statusCode: http.statusCode, headers: headers, body: body, requestDate: requestDate,
            responseDate: responseDate, variants: CacheKey.variants(named: varied, in: request))
    }

    /// This answer confirmed by the `304` `http`: its fields merged in, except those that describe the
    /// body, cookies, hop-by-hop fields and credentials; if the merge would pass ``mostHeaderBytes``, only
    /// the dates change. `keepable` is `false` when the merged answer may be used once but not kept: the
    /// `304` added `no-store`, or one of its fields carries a declared or learned credential value.
    func revalidated(
        by http: HTTPURLResponse, requestDate: Date, responseDate: Date
    ) -> (response: CachedHTTPResponse, keepable: Bool) {
        var carriesCredential = false
        var updated = self
        updated.requestDate = requestDate
        updated.responseDate = responseDate
        var headers = self.headers
        var sent: Set<String> = []
        for (name, value) in http.allHeaderFields {
            let name = "\(name)"
            let lowercase = name.lowercased()
            sent.insert(lowercase)
            guard !Self.unstoredFields.contains(lowercase), !Self.bodyFields.contains(lowercase),
                !Redaction.isSensitive(headerName: name), lowercase != "vary"
            else { continue }
            for old in headers.keys where old.isHeaderName(name) { headers[old] = nil }
            let value = "\(value)"
            if SecretRule.carriesSecretValue(value) { carriesCredential = true }
            headers[name] = Self.withoutCredentials(value, in: name)
        }
        // A 304 without a Date (or an Age) says nothing of the stored ones, which describe the first
        // answer: kept, they would make the confirmed answer look as old as that one (RFC 9110 section
        // 6.6.1 has the recipient supply the date it received the 304, which `responseDate` is).
        for old in headers.keys
        where ["date", "age"].contains(old.lowercased()) && !sent.contains(old.lowercased()) {
            headers[old] = nil
        }
        let bytes = headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        if bytes <= Self.mostHeaderBytes { updated.headers = headers }
        let forbids = CacheControl(http.value(forHTTPHeaderField: "Cache-Control")).noStore
        return (updated, !carriesCredential && !forbids && updated.mayBeKept)
    }
}

extension CachedHTTPResponse {
    /// This answer without its body: what a memo of it needs to keep.
    var withoutBody: CachedHTTPResponse {
        var copy = self
        copy.body = Data()
        return copy
    }

    /// Whether this is the same stored version as `other`: the same status, header fields and times
    /// (the body is not compared; a new version comes with a new `responseDate`).
    func isSameVersion(as other: CachedHTTPResponse) -> Bool {
        responseDate == other.responseDate && requestDate == other.requestDate
            && statusCode == other.statusCode
            && headers == other.headers
    }

    /// Whether this answer may be kept: its `Cache-Control` has no `no-store`, and no header field
    /// carries a value declared or learned as a credential (``Credentials``), such as an `ETag` echoing
    /// a key.
    var mayBeKept: Bool {
        !CacheControl(header("cache-control")).noStore && !Self.carriesCredentialValue(headers)
    }

    /// Whether a field's value holds a declared or learned credential value.
    static func carriesCredentialValue(_ headers: [String: String]) -> Bool {
        headers.values.contains { SecretRule.carriesSecretValue($0) }
    }
}
