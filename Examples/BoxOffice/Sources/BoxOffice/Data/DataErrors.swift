import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where the data layer's failures become the domain's ``BoxOfficeError``.
enum DataErrors {
    /// Runs `work`, turning whatever it throws into a ``BoxOfficeError``, or `CancellationError` when
    /// the task was cancelled.
    static func translating<Value>(_ work: () async throws -> Value) async throws -> Value {
        let started = ContinuousClock.now
        do {
            return try await work()
        } catch {
            throw translate(error, after: ContinuousClock.now - started)
        }
    }

    /// "The request timed out after 500 ms", and when the whole call took longer than one attempt's
    /// timeout (a retry, a backoff), how long it took in all: the timeout alone would understate it.
    private static func timedOut(after each: Duration, elapsed: Duration?) -> String {
        let attempt = "The request timed out after \(seconds(each))"
        guard let elapsed, elapsed > each * 1.2 else { return attempt + "." }
        return attempt + ", \(seconds(elapsed, alwaysSeconds: true)) of trying in all."
    }

    /// `duration` as `500 ms` or `15.0 s`.
    private static func seconds(_ duration: Duration, alwaysSeconds: Bool = false) -> String {
        let value = max(duration / .seconds(1), 0)
        if value < 1, !alwaysSeconds { return "\(Int((value * 1000).rounded())) ms" }
        return String(format: "%.1f s", value)
    }

    /// Which service answered, from the name of the type that did not decode.
    private static func service(decoding type: String) -> String {
        if type.contains("Kobis") { return "KOBIS" }
        if type.contains("Kakao") { return "Kakao" }
        return "The server"
    }

    /// `error` as the domain sees it; `elapsed` is how long the failed call took in all, when known.
    static func translate(_ error: any Error, after elapsed: Duration? = nil) -> any Error {
        switch error {
        case is CancellationError, is BoxOfficeError:
            return error
        case let error as NetworkError:
            switch error {
            case .transport(let failure) where failure.code == .cancelled:
                return CancellationError()
            case .timedOut(let each):
                return BoxOfficeError.unreachable(timedOut(after: each, elapsed: elapsed))
            case .transport, .session, .notCached:
                return BoxOfficeError.unreachable(error.description)
            case .apiError(let underlying):
                return translate(underlying, after: elapsed)
            case .unacceptableStatus(let failure) where (500...599).contains(failure.statusCode):
                // The server's own trouble: said as such, without the page it sent (often HTML).
                let url = failure.url.map { Redaction.redact($0) } ?? "the server"
                return BoxOfficeError.failed("HTTP \(failure.statusCode) from \(url)")
            case .unacceptableStatus(let failure):
                // A status the API did not explain (a proxy's 403, an image host's 404): named, without the
                // page the server sent.
                let url = failure.url.map { Redaction.redact($0) } ?? "the server"
                return BoxOfficeError.refused("HTTP \(failure.statusCode) from \(url)")
            case .invalidRequest, .middleware, .file:
                return BoxOfficeError.refused(error.description)
            case .decoding(let failure):
                // The decoder's path (`movieInfoResult.movieInfo.movieCd`) means nothing to a person.
                return BoxOfficeError.unreadable(
                    "\(service(decoding: failure.type)) answered in a form the app cannot read "
                        + "(not the documented JSON)")
            case .responseTooLarge(let limit):
                return BoxOfficeError.unreadable(
                    "the answer was larger than the \(limit) bytes the app reads, so it was dropped")
            }
        case let error as URLError where error.code == .cancelled:
            return CancellationError()
        case let error as KobisError where error.code == KobisError.noSuchMovie:
            return BoxOfficeError.notFound("KOBIS has no film with that code (\(error))")
        case is KobisError, PosterError.kakao:
            return BoxOfficeError.refused("\(error)")
        case is KobisMappingError:
            return BoxOfficeError.unreadable("\(error)")
        default:
            return BoxOfficeError.unreadable("\(error)")
        }
    }
}
