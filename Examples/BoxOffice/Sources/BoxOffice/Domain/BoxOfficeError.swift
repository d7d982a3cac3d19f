/// Why the app could not get what it asked for, in words a person can act on.
///
/// The data layer turns every failure of its network, caches and APIs into one of these, so the
/// presentation layer shows errors without knowing how data is fetched. Cancellation is not an error
/// here: repositories throw `CancellationError` for it.
public enum BoxOfficeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The service could not be reached, or did not answer in time.
    case unreachable(String)
    /// The service answered with a refusal: a bad key, an unknown code, a failure status.
    case refused(String)
    /// The service answered with something the app cannot read.
    case unreadable(String)
    /// The service has nothing under the name or code asked for (an unknown movie code).
    case notFound(String)

    /// The message, one line.
    public var description: String {
        switch self {
        case .unreachable(let message), .refused(let message), .unreadable(let message),
            .notFound(let message):
            message
        }
    }
}
