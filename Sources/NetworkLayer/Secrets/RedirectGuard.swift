import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Follows a URLSession redirect only as far as credentials are concerned: a redirect to another origin
/// (scheme, host or port) loses every credential-like header (see ``Redaction/isSensitive(headerName:)``),
/// as browsers drop `Authorization` on a cross-origin redirect. URLSession itself copies every header to
/// the new request (measured on Linux's FoundationNetworking: `Authorization` reached the other host).
///
/// Installed as each data task's own delegate, so it works with any `URLSession` a caller passes in.
final class RedirectGuard: NSObject, URLSessionTaskDelegate, Sendable {
    static let shared = RedirectGuard()

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(Self.redirect(request, from: task.originalRequest?.url ?? response.url))
    }

    /// `request`, a redirect from `origin`, with credentials removed when it leaves that origin.
    static func redirect(_ request: URLRequest, from origin: URL?) -> URLRequest {
        guard !isSameOrigin(origin, request.url) else { return request }
        var stripped = request
        for name in (request.allHTTPHeaderFields ?? [:]).keys where Redaction.isSensitive(headerName: name) {
            stripped.setValue(nil, forHTTPHeaderField: name)
        }
        return stripped
    }

    /// Whether both URLs have a scheme and a host, and the same scheme, host and port (a default port
    /// counted as given). A URL without a scheme or host has no origin and matches nothing.
    static func isSameOrigin(_ first: URL?, _ second: URL?) -> Bool {
        guard let first, let second, let firstScheme = first.scheme?.lowercased(),
            let firstHost = first.host?.lowercased()
        else { return false }
        return firstScheme == second.scheme?.lowercased() && firstHost == second.host?.lowercased()
            && effectivePort(first) == effectivePort(second)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        if let port = url.port { return port }
        switch url.scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }
}

extension URLSession {
    /// A data task (not yet resumed) whose outcome is an HTTP response or an error, and whose redirects
    /// to another origin lose their credential headers: the one way NetworkLayer sends through URLSession.
    func guardedDataTask(
        with request: URLRequest,
        completion: @escaping @Sendable (Result<(Data, HTTPURLResponse), any Error>) -> Void
    ) -> URLSessionDataTask {
        let task = dataTask(with: request) { data, response, error in
            if let error {
                completion(.failure(error))
            } else if let http = response as? HTTPURLResponse {
                completion(.success((data ?? Data(), http)))
            } else {
                completion(.failure(URLError(.badServerResponse)))
            }
        }
        task.delegate = RedirectGuard.shared
        return task
    }
}
