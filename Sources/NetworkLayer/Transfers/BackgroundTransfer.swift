import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A download or an upload that a background session finished with no caller waiting for it: the app
/// was terminated while it ran (or relaunched by the system for it), and the provider made again with the
/// same session identifier received its end.
///
/// A caller that is still waiting gets its answer as usual instead; this reports only what no caller
/// can. One whose process was killed before its report was made is reported at the next launch from
/// the session's journal: its ``body`` is then empty, and a failure other than a status, a transport
/// or a file error is ``NetworkError/session(_:)`` with its description. See ``NetworkProvider/init(sessionConfiguration:delegate:delegateQueue:middlewares:configuration:sendsCredentialHeaders:finishedInBackground:)``.
public struct BackgroundTransfer: Sendable {
    /// What the transfer was.
    public enum Kind: Sendable, Equatable {
        /// A download, whose file is at `destination` when ``BackgroundTransfer/error`` is `nil`.
        case download(destination: URL)
        /// An upload from a file.
        case upload
    }

    /// The name of the endpoint that was sent (``Endpoint/name``).
    public let endpoint: String
    /// A download and its destination, or an upload.
    public let kind: Kind
    /// The server's answer, when it answered.
    public let response: HTTPURLResponse?
    /// An upload's response body, its first MiB at most; empty for a download.
    public let body: Data
    /// Why it failed, or `nil` when the server answered with a `2xx` status and a download's file was
    /// moved to its destination. A refused status is ``NetworkError/unacceptableStatus(_:)`` (a
    /// download's body is not kept); a `206` that is not the rest of the version a resume continued, nor
    /// the whole body, is ``NetworkError/transport(_:)`` with `URLError(.cannotParseResponse)`; a
    /// download that failed is not resumed.
    public let error: NetworkError?
}
