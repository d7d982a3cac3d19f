/// Why the app could not get what it asked for, in words a person can act on.
///
/// The data layer turns every failure of its network, caches and APIs into one of these, so the
/// presentation layer shows errors without knowing how data is fetched. Cancellation is not an error
/// here: repositories throw `CancellationError` for it.
public enum BoxOfficeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The service could not be reached, or did not answer in time.
    case unreachable(String)
    /// The service answered with a refusal: its own error (a bad key, an unknown code), or a `4xx`.
    case refused(String)
    /// The service failed: it answered with a `5xx` status (its own trouble, not the request's).
    case failed(String)
    /// The service answered with something the app cannot read.
    case unreadable(String)
    /// The service has nothing under the name or code asked for (an unknown movie code).
    case notFound(String)

    /// The message, one line.
    public var description: String {
        switch self {
        case .unreachable(let message), .refused(let message), .failed(let message), .unreadable(let message),
            .notFound(let message):
            message
        }
    }
}
