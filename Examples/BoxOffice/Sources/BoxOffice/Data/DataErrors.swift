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
                return BoxOfficeError.refused("\(underlying)")
            case .unacceptableStatus, .invalidRequest, .middleware, .file:
                return BoxOfficeError.refused(error.description)
            case .decoding, .responseTooLarge:
                return BoxOfficeError.unreadable(error.description)
            }
        case let error as URLError where error.code == .cancelled:
            return CancellationError()
        case is KobisError, PosterError.kakao:
            return BoxOfficeError.refused("\(error)")
        case is KobisMappingError:
            return BoxOfficeError.unreadable("\(error)")
        default:
            return BoxOfficeError.unreadable("\(error)")
        }
    }
}
