import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why a request failed, with what a person needs to act on it.
///
/// ``NetworkProvider`` throws this for every failure except cancellation, which surfaces as
/// `CancellationError`, as everywhere in Swift concurrency.
///
/// It grows: a minor version may add a case, so a `switch` over it ends with `@unknown default:`
/// (Docs/Versioning.md, "How public errors grow").
public enum NetworkError: Error, Sendable, CustomStringConvertible {
    /// The request could not be built.
    case invalidRequest(InvalidRequest)
    /// The transport failed: no connection, lost connection, TLS, DNS. The `URLError` says which.
    case transport(URLError)
    /// The server answered with a status the endpoint does not accept.
    case unacceptableStatus(StatusFailure)
    /// The body could not be decoded into the endpoint's response type.
    case decoding(DecodingFailure)
    /// The API reported an error inside a successful response; the endpoint's `validate` hook threw it.
    case apiError(any Error & Sendable)
    /// An attempt took longer than the endpoint's timeout.
    case timedOut(Duration)
    /// A middleware failed for a reason of its own (a token provider that threw, say). A `URLError` a
    /// middleware throws (a token refresh that failed offline) is ``transport(_:)`` instead, and a
    /// `NetworkError` it throws arrives as it is.
    case middleware(any Error & Sendable)
    /// The session (a custom ``NetworkSessionType``) threw an error of its own, one that is not a
    /// `URLError`: a missing recording in a ``RecordReplaySession``, say.
    case session(any Error & Sendable)
    /// The file a download writes or an upload reads could not be used (a missing folder, a full disk,
    /// a file that is not a regular file).
    case file(any Error & Sendable)
    /// The response body is larger than the limit, in bytes: the endpoint's
    /// ``Endpoint/maximumResponseSize`` or the provider's
    /// ``NetworkProvider/Configuration/maximumResponseSize``. Nothing past the limit was kept.
    case responseTooLarge(limit: Int)
    /// The request's ``CachePolicy`` forbids the network (``CachePolicy/Rule/onlyIfCached``) and the
    /// provider's ``HTTPCache`` holds no answer for it.
    case notCached

    /// What part of a request could not be built.
    ///
    /// It grows: a minor version may add a case, so a `switch` over it ends with `@unknown default:`
    /// (Docs/Versioning.md, "How public errors grow").
    public enum InvalidRequest: Sendable {
        /// The base URL and path do not form a valid URL.
        case url(baseURL: String, path: String)
        /// The body could not be encoded.
        case body(endpoint: String, underlying: any Error & Sendable)
        /// The request needs what a background session cannot run, refused before any task is made: a
        /// `send`, a stream or an upload of `Data` on a provider made with a background configuration
        /// (``NetworkProvider/init(sessionConfiguration:delegate:delegateQueue:middlewares:configuration:sendsCredentialHeaders:finishedInBackground:)``),
        /// or any request through a background `URLSession` given to
        /// ``NetworkProvider/init(session:middlewares:configuration:)`` (give the provider its
        /// configuration instead).
        case backgroundSession(endpoint: String)
        /// The request carries a credential header (named, not its value) and goes through a background
        /// session, which follows redirects itself, to any host, with every header: refused before any
        /// task is made unless the provider was made with `sendsCredentialHeaders: true`.
        case credentialHeaderInBackground(endpoint: String, header: String)
        /// A download's endpoint sets a `Range` header of its own: a download writes a whole file and asks
        /// for ranges itself (to resume), so it is refused before any request. `send(_:)` returns a range's
        /// bytes.
        case rangeInDownload(endpoint: String)
        /// The provider was made in an app extension with a background configuration that names no
        /// `sharedContainerIdentifier`: the system invalidates such a session as it is made, and its first
        /// task raises an exception no Swift code can catch. No session was made; every transfer is
        /// refused with this. Set the configuration's `sharedContainerIdentifier` to an app group the app
        /// and the extension share.
        case backgroundSessionWithoutSharedContainer(identifier: String)
        /// The provider's session was invalidated (by the system, or by code that invalidated the
        /// `URLSession` the provider exposes): no task is made on it, since URLSession raises an
        /// exception for a task of an invalidated session. `reason` is the session's error, when it gave
        /// one.
        case sessionInvalidated(endpoint: String, reason: String?)
    }

    /// An answer with an unacceptable status.
    public struct StatusFailure: Sendable {
        /// The status code.
        public let statusCode: Int
        /// The response's header fields.
        public let headers: [String: String]
        /// The response body, which often explains the error.
        public let body: Data
        /// The URL that answered.
        public let url: URL?
        /// The body's first 200 characters with every secret hidden, made when the failure is, while the
        /// request's values are still in use: what ``NetworkError/description`` shows, however late it
        /// is read.
        let excerpt: String

        init(statusCode: Int, headers: [String: String], body: Data, url: URL?) {
            (self.statusCode, self.headers, self.body, self.url) = (statusCode, headers, body, url)
            excerpt = BodyText.excerpt(of: body)
        }

        /// Decodes the error payload the API sent in the body.
        /// ```swift
        /// if case .unacceptableStatus(let failure) = error,
        ///    let kakao = failure.decodeBody(as: KakaoError.self) { print(kakao.message) }
        /// ```
        /// - Parameters:
        ///   - type: The API's error type.
        ///   - decoder: A plain `JSONDecoder()` by default.
        /// - Returns: The payload, or `nil` when the body is not one.
        public func decodeBody<Payload: Decodable>(
            as type: Payload.Type, decoder: JSONDecoder = JSONDecoder()
        ) -> Payload? {
            try? decoder.decode(Payload.self, from: body)
        }
    }

    /// A body that did not decode.
    public struct DecodingFailure: Sendable {
        /// The type that was being decoded.
        public let type: String
        /// Where in the JSON it failed, such as `boxOfficeResult.dailyBoxOfficeList[3].audiCnt`, each key
        /// as the body spells it (`stargazers_count`, not the `stargazersCount` a snake-case decoder reports).
        public let codingPath: String
        /// What went wrong there.
        public let reason: String
        /// The first 200 characters of the body as text (``NetworkLayer/Redaction``: secrets hidden before
        /// the cut, a UTF-16 body read as UTF-16).
        public let bodyExcerpt: String
        /// The decoder's own error, intact: a `DecodingError` for JSON, whatever a custom decoder threw.
        public let underlying: any Error & Sendable
    }

    /// One line a person can act on, safe to show: secrets in URLs, headers and underlying errors are
    /// redacted (see ``Redaction``), and line breaks and other control characters from the server's body
    /// or an underlying error are replaced, so the text stays on one line and cannot drive a terminal.
    public var description: String {
        Self.oneLine(Redaction.redact(text: unredactedDescription))
    }

    private var unredactedDescription: String {
        switch self {
        case .invalidRequest(.url(let baseURL, let path)):
            return
                "Invalid request: \"\(baseURL)\" and path \"\(path)\" do not form a URL. Check the base URL."
        case .invalidRequest(.body(let endpoint, let underlying)):
            return "Invalid request: the body of \(endpoint) could not be encoded: \(underlying)"
        case .invalidRequest(.backgroundSession(let endpoint)):
            return "Invalid request: \(endpoint) cannot be sent through a background URLSession."
        case .invalidRequest(.backgroundSessionWithoutSharedContainer(let identifier)):
            return
                "Invalid request: the background session \(identifier) was made in an app extension without "
                + "a sharedContainerIdentifier, which the system invalidates; set it to an app group."
        case .invalidRequest(.sessionInvalidated(let endpoint, let reason)):
            return "Invalid request: the session for \(endpoint) was invalidated"
                + (reason.map { " (\($0))" } ?? "") + "; make a new provider."
        case .invalidRequest(.rangeInDownload(let endpoint)):
            return
                "Invalid request: \(endpoint) sets its own Range header, which a download (a whole file) does not "
                + "take; send it with send(_:) to get the range's bytes."
        case .invalidRequest(.credentialHeaderInBackground(let endpoint, let header)):
            return "Invalid request: \(endpoint) carries \(header), which a background URLSession would send "
                + "along a redirect to any host."
        case .transport(let error):
            return "Network failure (URLError \(error.code.rawValue)): \(error.localizedDescription)"
        case .unacceptableStatus(let failure):
            let excerpt = failure.excerpt
            return
                "HTTP \(failure.statusCode) from \(failure.url.map { Redaction.redact($0) } ?? "the server")"
                + (excerpt.isEmpty ? "." : ": \(excerpt)")
        case .decoding(let failure):
            let location = failure.codingPath.isEmpty ? "the top level" : failure.codingPath
            // The decoder's own sentence may end with a period already.
            let reason = failure.reason.hasSuffix(".") ? String(failure.reason.dropLast()) : failure.reason
            return "Could not decode \(failure.type) at \(location): \(reason). Body starts: "
                + failure.bodyExcerpt
        case .apiError(let error):
            return "\(error)"
        case .timedOut(let duration):
            return "The request timed out after \(duration.formattedSeconds)."
        case .middleware(let error):
            return "A middleware failed: \(error)"
        case .session(let error):
            return "The session failed: \(error)"
        case .file(let error):
            return "A file could not be used: \(error)"
        case .responseTooLarge(let limit):
            return "The response is larger than the limit of \(limit) bytes."
        case .notCached:
            return "No stored answer for this request, and its cache policy forbids the network."
        }
    }

    /// `text` on one line: every control character (line breaks, tabs, escape sequences' ESC, C1 codes)
    /// becomes a space, and runs of spaces one.
    static func oneLine(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            let isSpace = scalar == " " || scalar.properties.generalCategory == .control
            if isSpace {
                if !lastWasSpace { result.unicodeScalars.append(" ") }
            } else {
                result.unicodeScalars.append(scalar)
            }
            lastWasSpace = isSpace
        }
        return result
    }

    /// Whether retrying may succeed: ``timedOut(_:)``; a ``transport(_:)`` error whose code is
    /// `timedOut`, `networkConnectionLost`, `cannotConnectToHost`, `notConnectedToInternet`,
    /// `dnsLookupFailed` or `cannotFindHost`; and statuses 408, 429 and 5xx other than 501. Nothing else
    /// (TLS failures, a bad URL, cancellation, ``notCached``) is. ``RetryMiddleware`` retries what its
    /// policy's ``RetryPolicy/isRetryable`` says, which is this by default.
    public var isTransient: Bool {
        switch self {
        case .timedOut:
            return true
        case .transport(let error):
            return FailureKinds.transient.contains(error.code)
        case .unacceptableStatus(let failure):
            return FailureKinds.isTransient(status: failure.statusCode)
        default:
            return false
        }
    }

    /// Whether the device looks offline: a ``transport(_:)`` error whose code is
    /// `notConnectedToInternet`, `dataNotAllowed` (cellular data off for the app) or
    /// `internationalRoamingOff`. On Linux, where FoundationNetworking reports a missing network as a
    /// host it cannot find (measured: `cannotFindHost`, -1003), `cannotFindHost` and `dnsLookupFailed`
    /// count too; a refused connection (`cannotConnectToHost`) never does, on any platform: it is a
    /// server that is down, as often as a network that is.
    public var isOffline: Bool {
        guard case .transport(let error) = self else { return false }
        if FailureKinds.offline.contains(error.code) { return true }
        return runsOnFoundationNetworking && FailureKinds.offlineOnFoundationNetworking.contains(error.code)
    }

    /// Describes a `DecodingError` with its coding path rendered like `a.b[3].c`.
    static func decoding(_ error: any Error, type: String, body: Data, convertsSnakeCase: Bool = false)
        -> NetworkError
    {
        let excerpt = BodyText.excerpt(of: body)
        guard let decodingError = error as? DecodingError else {
            return .decoding(
                DecodingFailure(
                    type: type, codingPath: "", reason: "\(error)", bodyExcerpt: excerpt,
                    underlying: error))
        }
        let (path, reason): ([any CodingKey], String)
        switch decodingError {
        case .typeMismatch(let expected, let context):
            (path, reason) = (context.codingPath, "expected \(expected), \(context.debugDescription)")
        case .valueNotFound(let expected, let context):
            (path, reason) = (context.codingPath, "no value for \(expected), \(context.debugDescription)")
        case .keyNotFound(let key, let context):
            (path, reason) = (context.codingPath + [key], "missing key \"\(key.stringValue)\"")
        case .dataCorrupted(let context):
            (path, reason) = (context.codingPath, context.debugDescription)
        @unknown default:
            (path, reason) = ([], "\(decodingError)")
        }
        return .decoding(
            DecodingFailure(
                type: type,
                codingPath: JSONKeyPath.render(path, in: body, convertsSnakeCase: convertsSnakeCase),
                reason: reason,
                bodyExcerpt: excerpt, underlying: decodingError))
    }
}
