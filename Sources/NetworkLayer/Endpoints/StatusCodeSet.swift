/// Any set of HTTP status codes, such as the codes an endpoint accepts: a range, an array or a `Set`, or
/// a type of your own.
///
/// ```swift
/// endpoint.acceptableStatusCodes = 200...299                       // a range
/// endpoint.acceptableStatusCodes = [200, 304]                       // single codes
/// endpoint.acceptableStatusCodes = Set(200...299).union([304])      // both
/// ```
public protocol StatusCodeSet: Sendable {
    /// Whether `statusCode` is in the set.
    /// - Parameter statusCode: A status code.
    /// - Returns: `true` when it is.
    func contains(_ statusCode: Int) -> Bool
}

extension ClosedRange: StatusCodeSet where Bound == Int {}
extension Range: StatusCodeSet where Bound == Int {}
extension Set: StatusCodeSet where Element == Int {}
extension Array: StatusCodeSet where Element == Int {}
