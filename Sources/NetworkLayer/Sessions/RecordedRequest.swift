import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request a ``StubSession`` answered, as a test checks it: its method, its URL and headers with
/// every credential shown as `REDACTED` (``Redaction``), and how many body bytes it carried.
///
/// A credential is never shown, in ``headers``, in ``url`` or in a description a failing expectation
/// prints; ``header(_:is:)`` still tells which one was sent:
/// ```swift
/// #expect(session.requests.last?.header("Authorization", is: "Bearer new-token") == true)
/// ```
public struct RecordedRequest: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The HTTP method, `GET` when the request named none.
    public let method: String
    /// The URL, with key-like query values and any password replaced by `REDACTED`.
    public let url: String
    /// The header fields, with credential-like values replaced by `REDACTED`.
    public let headers: [String: String]
    /// How many bytes the request's body held (0 without one, or for a body streamed from a file).
    public let bodyByteCount: Int
    /// The fields as sent, only compared (``header(_:is:)``), never shown.
    private let sentHeaders: [String: String]

    /// Records `request`.
    /// - Parameter request: The request as the session received it.
    public init(_ request: URLRequest) {
        self.init(Sent(request))
    }

    /// What a session keeps of a request until it is read: no body, nothing redacted yet (its mirror,
    /// which `dump` of a session reaches, shows the redacted fields only).
    struct Sent: Sendable, CustomReflectable {
        let method: String
        let url: URL?
        let headers: [String: String]
        let bodyByteCount: Int

        init(_ request: URLRequest) {
            method = request.httpMethod ?? "GET"
            url = request.url
            headers = request.allHTTPHeaderFields ?? [:]
            bodyByteCount = request.httpBody?.count ?? 0
        }

        var customMirror: Mirror {
            RecordedRequest(self).customMirror
        }
    }

    init(_ sent: Sent) {
        method = sent.method
        url = Redaction.redact(sent.url)
        headers = Redaction.redact(sent.headers)
        bodyByteCount = sent.bodyByteCount
        sentHeaders = sent.headers
    }

    /// Whether the field `name` (in any letter case) was sent with exactly `value`.
    /// - Parameters:
    ///   - name: The field's name.
    ///   - value: The value expected, a credential included.
    /// - Returns: `true` when the request carried the field with that value.
    public func header(_ name: String, is value: String) -> Bool {
        sentHeaders.contains { $0.key.isHeaderName(name) && $0.value == value }
    }

    /// `GET https://…` and the fields, credentials hidden.
    public var description: String {
        let fields = headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        return ([method + " " + url] + fields).joined(separator: "\n")
    }

    /// The same as ``description``: no credential is shown when a test prints the request.
    public var debugDescription: String { description }

    /// The shown fields only, so `dump` and a failing expectation's reflection of the request show no
    /// credential either.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["method": method, "url": url, "headers": headers, "bodyByteCount": bodyByteCount],
            displayStyle: .struct)
    }
}
