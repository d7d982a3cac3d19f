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
    /// Why the system cancelled the transfer, when it did (the user force-quit the app, background
    /// updates were turned off, the system ran short of resources); `nil` otherwise. Reported by this
    /// process only, not by a report replayed from the journal.
    public let cancellationReason: CancellationReason?
    /// The bytes URLSession left to resume this download where it stopped (a force-quit, a dropped
    /// connection), when it left them: give the transfer to
    /// ``NetworkProvider/download(_:to:resuming:resumeAttempts:progress:)`` to go on from there. It holds
    /// the request URLSession saved, its credential headers included, so it is never written to the
    /// journal, a log or this value's mirror; a report replayed from the journal carries none.
    public let resumeData: Data?
    /// A finished download whose destination this process could not reach (its folder gone, or out of
    /// the relaunched app's reach: a security-scoped folder, a sandboxed Mac app's Downloads): the file,
    /// kept in the app's container instead of deleted, for the app to move where it goes; `nil`
    /// otherwise. The transfer's ``error`` is then ``NetworkError/file(_:)``. Give downloads that may
    /// finish in the background a destination inside the container or an app group.
    public let unplacedFile: URL?

    /// Why the system cancelled a background transfer (`NSURLErrorBackgroundTaskCancelledReasonKey`).
    public enum CancellationReason: Sendable, Equatable {
        /// The user force-quit the app from the app switcher.
        case userForceQuitApplication
        /// The user turned background app refresh off for the app.
        case backgroundUpdatesDisabled
        /// The system needed the resources.
        case insufficientSystemResources
        /// A reason this version does not know, by its number.
        case other(Int)

        init(_ code: Int) {
            switch code {
            case 0: self = .userForceQuitApplication
            case 1: self = .backgroundUpdatesDisabled
            case 2: self = .insufficientSystemResources
            default: self = .other(code)
            }
        }
    }

    init(
        endpoint: String, kind: Kind, response: HTTPURLResponse?, body: Data, error: NetworkError?,
        cancellationReason: CancellationReason? = nil, resumeData: Data? = nil, unplacedFile: URL? = nil
    ) {
        self.unplacedFile = unplacedFile
        self.endpoint = endpoint
        self.kind = kind
        self.response = response
        self.body = body
        self.error = error
        self.cancellationReason = cancellationReason
        self.resumeData = resumeData
    }
}

extension BackgroundTransfer: CustomReflectable {
    /// What `print`, `dump` and a debugger show: every property but the resume data's bytes (it holds the
    /// saved request, credential headers included), shown by size.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "endpoint": endpoint, "kind": kind, "response": response as Any, "body": body,
                "error": error as Any, "cancellationReason": cancellationReason as Any,
                "resumeData": resumeData.map { "\($0.count) bytes" } as Any,
                "unplacedFile": unplacedFile as Any,
            ],
            displayStyle: .struct)
    }
}
