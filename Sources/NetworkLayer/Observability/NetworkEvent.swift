import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What happens to a request, for logging and metrics: give ``NetworkProvider/Configuration/onEvent`` a
/// handler to receive each event. Bridge it to `os.Logger` or swift-log in a few lines
/// (Docs/NetworkLayer.md shows `os.Logger`); NetworkLayer depends on neither.
///
/// Its `description` is one redacted line: credential-like query values and headers hidden as in
/// ``Redaction``. A path segment is shown unless it carries a declared or learned value: declare a token
/// that travels in the path (`/bot<TOKEN>/getMe`) with ``Credentials/declare(value:)``.
///
/// It grows: a minor version may add a case, so a `switch` over it ends with `@unknown default:`
/// (Docs/Versioning.md, "How public errors grow").
public enum NetworkEvent: Sendable, CustomStringConvertible {
    /// The first attempt reached the transport.
    case started(Summary)
    /// A later attempt reached the transport: a middleware sent the request again.
    case retried(Summary)
    /// The request completed with an accepted status (and, for ``NetworkProvider/send(_:)``, decoded). For
    /// ``NetworkProvider/stream(_:)``, when the head was accepted: the body is the caller's to read, and
    /// a failure while reading it is thrown to the reader, not reported here.
    case finished(Summary)
    /// The request failed; the error is what the caller receives.
    case failed(Summary, any Error)

    /// What an event says about its request.
    public struct Summary: Sendable {
        /// The endpoint's name: its method and path.
        public let endpointName: String
        /// The request's URL with secrets hidden, as ``Redaction`` renders it.
        public let redactedURL: String
        /// The attempt the event is about (for `finished` and `failed`, the last one; `nil` when the
        /// request failed before reaching the transport).
        public let metrics: RequestMetrics?
        /// Every attempt so far.
        public let attempts: [RequestMetrics]
    }

    /// The event's summary.
    public var summary: Summary {
        switch self {
        case .started(let summary), .retried(let summary), .finished(let summary), .failed(let summary, _):
            summary
        }
    }

    /// One line, such as `finished GET movie/searchMovieInfo.json https://…?key=REDACTED (200 in 41 ms)`.
    public var description: String {
        let summary = summary
        let head = "\(summary.endpointName) \(summary.redactedURL)"
        let facts = self.facts
        let text =
            switch self {
            case .started: "started \(head)"
            case .retried: "retried \(head) (attempt \(summary.metrics?.attempt ?? 0))"
            case .finished: "finished \(head) (\(facts))"
            case .failed(_, let error): "failed \(head) (\(facts)): \(error)"
            }
        return NetworkError.oneLine(Redaction.redact(text: text))
    }

    /// The status, the time and the attempts: `200 in 41 ms, 2 attempts`.
    var facts: String {
        let summary = summary
        var facts = [
            summary.metrics?.statusCode.map(String.init),
            summary.metrics?.duration.map { "in \($0.formattedSeconds)" },
        ]
        .compactMap { $0 }.joined(separator: " ")
        if summary.attempts.count > 1 { facts += ", \(summary.attempts.count) attempts" }
        return facts
    }
}
