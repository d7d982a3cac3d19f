import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Collects a whole body as it arrives, up to a limit: the sink behind ``NetworkProvider/send(_:)`` on a
/// `URLSession`. For an accepted status, a `Content-Length` over the limit is refused before any byte of
/// the body is read, and bytes past the limit (counted after URLSession decompresses them) stop the
/// transfer; either way it fails with ``NetworkError/responseTooLarge(limit:)`` and nothing past the limit
/// is kept. A refused status keeps its body's first bytes (at most the limit and the error-body limit)
/// and ends there, so a middleware or the caller still sees the status.
final class BodyCollector: TransferSink, Sendable {
    typealias Outcome = Result<(Data, HTTPURLResponse), any Error>

    private struct State: @unchecked Sendable {
        // @unchecked Sendable: the head is read, never mutated, after it arrives; Foundation does not
        // annotate HTTPURLResponse `Sendable` on every platform.
        var head: HTTPURLResponse?
        var body = Data()
        /// A refused status's body, kept instead of `body`.
        var refused: RefusedBody?
        var isClosed = false
        var finish: (@Sendable (Outcome) -> Void)?
    }

    /// The most bytes reserved up front on the word of a `Content-Length`, which a server may lie about.
    static let largestReservation = 1 << 20

    private let limit: Int
    private let accepts: any StatusCodeSet
    private let hasNoBody: Bool
    private let state: Locked<State>

    /// - Parameters:
    ///   - limit: The most bytes the body of an accepted status may have.
    ///   - accepts: The statuses the endpoint accepts; others keep at most the error-body limit.
    ///   - method: The request's method: a `HEAD` answer has a `Content-Length` but no body.
    ///   - finish: Called once, with the body and head or the failure.
    init(
        limit: Int, accepts: any StatusCodeSet, method: String?,
        finish: @escaping @Sendable (Outcome) -> Void
    ) {
        self.limit = max(0, limit)
        self.accepts = accepts
        hasNoBody = method == "HEAD"
        state = Locked(State(finish: finish))
    }

    func open(_ head: HTTPURLResponse) throws {
        let accepted = accepts.contains(head.statusCode)
        // A HEAD answer, a 1xx, 204 or 304 has no body, whatever its Content-Length says.
        let bodiless = hasNoBody || head.statusCode < 200 || head.statusCode == 204 || head.statusCode == 304
        let declared = bodiless ? 0 : head.expectedContentLength
        if accepted, declared > Int64(limit) { throw NetworkError.responseTooLarge(limit: limit) }
        state.withLock { state in
            state.head = head
            guard accepted else {
                state.refused = RefusedBody(capacity: limit)
                return
            }
            let reserved = min(declared, Int64(min(limit, Self.largestReservation)))
            if reserved > 0 { state.body.reserveCapacity(Int(reserved)) }
        }
    }

    func write(_ data: Data) throws {
        enum Next { case kept, full, tooLarge }
        let next = state.withLock { state -> Next in
            guard !state.isClosed else { return .kept }
            // A refused status's body is cut, not refused: the status is what the caller needs.
            if let refused = state.refused {
                // Full once more arrives than fits: a body that ends exactly at the limit ends by itself.
                let fits = refused.fits(data.count)
                state.refused?.append(data)
                return fits ? .kept : .full
            }
            guard data.count > limit - state.body.count else {
                state.body.append(data)
                return .kept
            }
            return .tooLarge
        }
        switch next {
        case .kept: break
        case .full: throw BodyComplete()
        case .tooLarge: throw NetworkError.responseTooLarge(limit: limit)
        }
    }

    func close(_ error: (any Error)?) {
        let (finish, outcome) = state.withLock { state -> ((@Sendable (Outcome) -> Void)?, Outcome) in
            defer {
                state.isClosed = true
                state.finish = nil
                state.body = Data()
                state.refused = nil
            }
            guard let head = state.head else {
                return (state.finish, .failure(error ?? URLError(.badServerResponse)))
            }
            if let error, !(error is BodyComplete) { return (state.finish, .failure(error)) }
            return (state.finish, .success((state.refused?.bytes ?? state.body, head)))
        }
        finish?(outcome)
    }
}

/// Ends a transfer whose caller has all of the body it keeps (a refused status's first bytes).
struct BodyComplete: Error {}
