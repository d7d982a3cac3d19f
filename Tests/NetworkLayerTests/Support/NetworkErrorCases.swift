import Foundation
import NetworkLayer

/// Each `NetworkError` case's payload, or `nil` for any other case: a test names the case it expects in
/// one line, `try #require((thrown as? NetworkError)?.statusFailure, "expected a 404, got …")`, where a
/// `guard case … else { Issue.record(…); return }` took four.
extension NetworkError {
    var invalidRequestReason: InvalidRequest? {
        if case .invalidRequest(let reason) = self { reason } else { nil }
    }

    var transportError: URLError? {
        if case .transport(let error) = self { error } else { nil }
    }

    var statusFailure: StatusFailure? {
        if case .unacceptableStatus(let failure) = self { failure } else { nil }
    }

    var decodingFailure: DecodingFailure? {
        if case .decoding(let failure) = self { failure } else { nil }
    }

    var validationError: (any Error & Sendable)? {
        if case .apiError(let error) = self { error } else { nil }
    }

    var timeout: Duration? {
        if case .timedOut(let duration) = self { duration } else { nil }
    }

    var middlewareError: (any Error & Sendable)? {
        if case .middleware(let error) = self { error } else { nil }
    }

    var sessionError: (any Error & Sendable)? {
        if case .session(let error) = self { error } else { nil }
    }

    var fileError: (any Error & Sendable)? {
        if case .file(let error) = self { error } else { nil }
    }

    var sizeLimit: Int? {
        if case .responseTooLarge(let limit) = self { limit } else { nil }
    }

    var isNotCached: Bool {
        if case .notCached = self { true } else { false }
    }
}
