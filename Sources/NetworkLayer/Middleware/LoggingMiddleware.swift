import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Logs each exchange through a closure, with secrets redacted: `Authorization`, `Proxy-Authorization`
/// and `Cookie` headers, and query parameters whose names look like keys (`key`, `apiKey`, `serviceKey`,
/// `token`, `secret`, `password`, `signature`).
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
            log("✕ \(method) \(url) failed after \(elapsed): \(error)")
            throw error
        }
    }
}

/// Hides secrets in logged requests.
public enum Redaction {
    /// Header fields whose values are never logged.
    public static let sensitiveHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]
    /// Fragments that make a query parameter's name look secret, compared case-insensitively.
    public static let sensitiveQueryFragments = ["key", "token", "secret", "password", "signature"]

    /// `url` with the values of secret-looking query parameters replaced by `REDACTED`.
    /// - Parameter url: The URL to show.
    /// - Returns: The URL's text, safe to log.
    public static func redact(_ url: URL?) -> String {
        guard let url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url?.absoluteString ?? "<no URL>"
        }
        if let items = components.percentEncodedQueryItems {
            components.percentEncodedQueryItems = items.map { item in
                let name = item.name.lowercased()
                guard sensitiveQueryFragments.contains(where: name.contains) else { return item }
                return URLQueryItem(name: item.name, value: "REDACTED")
            }
        }
        return components.string ?? url.absoluteString
    }

    /// `headers` with the values of sensitive fields replaced by `REDACTED`.
    /// - Parameter headers: The header fields.
    /// - Returns: The fields, safe to log.
    public static func redact(_ headers: [String: String]) -> [String: String] {
        headers.reduce(into: [:]) { result, field in
            result[field.key] = sensitiveHeaders.contains(field.key.lowercased()) ? "REDACTED" : field.value
        }
    }
}

extension Duration {
    var formattedMilliseconds: String {
        "\(Int((timeInterval * 1000).rounded())) ms"
    }
}
