import Foundation

/// One stored answer of an ``HTTPCache``: what an ``HTTPCacheStore`` keeps.
///
/// It holds no secret the request carried: header fields that carry credentials, `Set-Cookie` and the
/// hop-by-hop fields are not kept, a credential inside another field's value is hidden, the request's
/// URL is not kept at all, and where a `Vary` field names a credential header, only a SHA-256 digest of
/// its value is kept. A store may write it anywhere.
public struct CachedHTTPResponse: Sendable, Hashable {
    /// The status code: 200, or another status RFC 9111 lets a cache store.
    public var statusCode: Int
    /// The response's header fields, names as the server sent them (the cache reads them without regard
    /// to case), so an answer from the store reads as the network's did.
    public var headers: [String: String]
    /// The body.
    public var body: Data
    /// When the request that got this answer was sent (RFC 9111's `request_time`).
    public var requestDate: Date
    /// When the answer arrived, or was last revalidated (RFC 9111's `response_time`).
    public var responseDate: Date
    /// The request's values of the header fields the answer's `Vary` names, names lowercased (an absent
    /// field is an empty string; a credential's value is its digest). A request with other values is not
    /// answered with this one.
    public var variants: [String: String]

    /// Creates a stored answer.
    /// - Parameters:
    ///   - statusCode: The status.
    ///   - headers: The response's header fields.
    ///   - body: The body.
    ///   - requestDate: When the request was sent.
    ///   - responseDate: When the answer arrived.
    ///   - variants: The request's values of the fields `Vary` names; empty by default.
    public init(
        statusCode: Int, headers: [String: String], body: Data, requestDate: Date, responseDate: Date,
        variants: [String: String] = [:]
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.requestDate = requestDate
        self.responseDate = responseDate
        self.variants = variants
    }

    /// The bytes it occupies, roughly: the body, and the header names and values.
    public var byteCount: Int {
        headers.reduce(body.count) { $0 + $1.key.utf8.count + $1.value.utf8.count }
            + variants.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
    }

    /// The value of a header field, by its name in any case.
    func header(_ name: String) -> String? {
        headers[name] ?? headers.value(named: name)
    }
}
