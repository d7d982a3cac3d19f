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

    /// Every attempt's timing and sizes, in order (one unless a middleware sent the request again).
    public internal(set) var metrics: [RequestMetrics] = []

    /// Where the response came from: the network, or the provider's ``HTTPCache`` (fresh, confirmed
    /// by a `304`, or stale because the network failed). ``ResponseSource/network`` without a cache.
    public internal(set) var source = ResponseSource.network

    /// The status code.
    public var statusCode: Int { httpResponse.statusCode }
}
