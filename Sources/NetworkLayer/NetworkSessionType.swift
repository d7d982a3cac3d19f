import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport seam: a request in, the body and the HTTP response out.
///
/// `URLSession` conforms. The library also ships ``StubSession`` (closure-backed, for tests and previews)
/// and ``RecordReplaySession`` (real exchanges stored in a folder and replayed offline). Implement it to
/// put any client behind ``NetworkProvider``.
public protocol NetworkSessionType: Sendable {
    /// Sends `request` and returns the body and the HTTP response.
    /// - Parameter request: The request to send.
    /// - Returns: The body and the response, whatever its status.
    /// - Throws: A `URLError` for transport failures; `CancellationError` or `URLError.cancelled` when
    ///   the calling task is cancelled.
    func response(for request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

extension URLSession: NetworkSessionType {
    /// Sends `request` with `data(for:)`.
    /// - Parameter request: The request to send.
    /// - Returns: The body and the HTTP response.
    /// - Throws: The session's `URLError`, or `URLError(.badServerResponse)` for a non-HTTP response.
    public func response(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        return (data, http)
    }
}
