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
        do {
            return try await work()
        } catch {
            throw translate(error)
        }
    }

    /// Which service answered, from the name of the type that did not decode.
    private static func service(decoding type: String) -> String {
        if type.contains("Kobis") { return "KOBIS" }
        if type.contains("Kakao") { return "Kakao" }
        return "The server"
    }

    /// `error` as the domain sees it.
    static func translate(_ error: any Error) -> any Error {
        switch error {
        case is CancellationError, is BoxOfficeError:
            return error
        case let error as NetworkError:
            switch error {
            case .transport(let failure) where failure.code == .cancelled:
                return CancellationError()
            case .transport, .timedOut, .session:
                return BoxOfficeError.unreachable(error.description)
            case .apiError(let underlying):
                return translate(underlying)
            case .unacceptableStatus, .invalidRequest, .middleware, .file:
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
