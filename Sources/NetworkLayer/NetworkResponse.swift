import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A decoded value with the raw exchange it came from.
public struct NetworkResponse<Value: Sendable>: Sendable {
    /// The decoded value.
    public let value: Value
    /// The raw body.
    public let data: Data
    /// The HTTP response: status, headers, URL (after redirects).
    public let httpResponse: HTTPURLResponse

    /// The status code.
    public var statusCode: Int { httpResponse.statusCode }
}
