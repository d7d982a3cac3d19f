import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Logs each exchange through a closure, with secrets redacted by ``Redaction``: credential-like headers
/// (`Authorization`, `Cookie`, `X-Api-Key`, …), query parameters whose names look like keys (`key`,
/// `apiKey`, `serviceKey`, `token`, `secret`, `password`, `signature`), and the same inside the text of
/// a failure (an `URLError` carries the failing URL in its user info).
///
/// The library does not depend on a logging package; bridge the closure to yours:
/// ```swift
/// LoggingMiddleware { line in logger.debug("\(line)") }     // swift-log or os.Logger
/// ```
/// Lines look like `→ GET https://…/searchDailyBoxOfficeList.json?key=REDACTED&targetDt=20261121` and
/// `← 200 GET …/searchDailyBoxOfficeList.json in 84 ms, 3,412 bytes`.
public struct LoggingMiddleware: NetworkMiddleware {
    private let log: @Sendable (String) -> Void
    private let logsHeaders: Bool

    /// Creates the middleware.
    /// - Parameters:
    ///   - logsHeaders: Whether request headers are logged (redacted); `false` by default.
    ///   - log: Receives each line.
    public init(logsHeaders: Bool = false, log: @escaping @Sendable (String) -> Void) {
        self.logsHeaders = logsHeaders
        self.log = log
    }

    /// Logs the request, sends it on, and logs the outcome with its duration.
    public func intercept(
        _ request: URLRequest, context: RequestContext, next: Next
    ) async throws -> (Data, HTTPURLResponse) {
        let method = request.httpMethod ?? "GET"
        let url = Redaction.redact(request.url)
        var line = "→ \(method) \(url)"
        if logsHeaders, let headers = request.allHTTPHeaderFields, !headers.isEmpty {
            line +=
                " "
                + Redaction.redact(headers).sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
                .joined(separator: ", ")
        }
        log(line)
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let (data, response) = try await next(request)
            let elapsed = (clock.now - start).formattedMilliseconds
            log("← \(response.statusCode) \(method) \(url) in \(elapsed), \(data.count) bytes")
            return (data, response)
        } catch {
            let elapsed = (clock.now - start).formattedMilliseconds
            log("✕ \(method) \(url) failed after \(elapsed): \(Self.describe(error))")
            throw error
        }
    }
}

extension LoggingMiddleware {
    /// `error` as the caller will see it: a ``NetworkError``'s own one-line description (a `URLError`
    /// becomes ``NetworkError/transport(_:)``), anything else redacted and on one line.
    static func describe(_ error: any Error) -> String {
        if let error = NetworkProvider.map(error) as? NetworkError { return error.description }
        return NetworkError.oneLine(Redaction.redact(text: "\(error)"))
    }
}
