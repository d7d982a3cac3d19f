import Foundation

extension NetworkEvent {
    /// The event's line without its URL, body excerpt or error text: what it did, the endpoint's name (its
    /// method and path), the status, the time, the attempts and the error's kind, such as
    /// `failed GET movie/searchMovieInfo.json (401 in 41 ms): unacceptableStatus`. Log this part public
    /// and ``description`` private: redaction removes credentials, not personal data (a search term in
    /// the query, an id in a body excerpt). A path that carries personal data (`users/kim`) makes the
    /// endpoint's name personal too.
    public var publicDescription: String {
        let summary = summary
        let facts = self.facts
        let text =
            switch self {
            case .started: "started \(summary.endpointName)"
            case .retried: "retried \(summary.endpointName) (attempt \(summary.metrics?.attempt ?? 0))"
            case .finished: "finished \(summary.endpointName) (\(facts))"
            case .failed(_, let error): "failed \(summary.endpointName) (\(facts)): \(Self.kind(of: error))"
            }
        return NetworkError.oneLine(Redaction.redact(text: text))
    }

    /// An error's kind, without its text: a ``NetworkError``'s case (a transport error with its code),
    /// `cancelled`, or the type's name.
    static func kind(of error: any Error) -> String {
        switch error {
        case is CancellationError: return "cancelled"
        case let error as NetworkError:
            switch error {
            case .invalidRequest: return "invalidRequest"
            case .transport(let failure): return "transport(\(failure.code.rawValue))"
            case .unacceptableStatus: return "unacceptableStatus"
            case .decoding: return "decoding"
            case .apiError: return "apiError"
            case .timedOut: return "timedOut"
            case .middleware: return "middleware"
            case .session: return "session"
            case .file: return "file"
            case .responseTooLarge: return "responseTooLarge"
            case .notCached: return "notCached"
            }
        default: return String(describing: type(of: error))
        }
    }
}
