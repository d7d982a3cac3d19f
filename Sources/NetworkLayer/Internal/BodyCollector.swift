import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Collects a whole body as it arrives, up to a limit: the sink behind ``NetworkProvider/send(_:)`` on a
/// `URLSession`. A `Content-Length` over the limit is refused before any byte of the body is read; bytes
/// past the limit (counted after URLSession decompresses them) stop the transfer. Either way the
/// transfer fails with ``NetworkError/responseTooLarge(limit:)`` and nothing past the limit is kept.
final class BodyCollector: TransferSink, Sendable {
    typealias Outcome = Result<(Data, HTTPURLResponse), any Error>

    private struct State: @unchecked Sendable {
        // @unchecked Sendable: the head is read, never mutated, after it arrives; Foundation does not
        // annotate HTTPURLResponse `Sendable` on every platform.
        var head: HTTPURLResponse?
        var body = Data()
        var finish: (@Sendable (Outcome) -> Void)?
    }

    private let limit: Int
    private let state: Locked<State>

    /// - Parameters:
    ///   - limit: The most bytes the body may have.
    ///   - finish: Called once, with the body and head or the failure.
    init(limit: Int, finish: @escaping @Sendable (Outcome) -> Void) {
        self.limit = max(0, limit)
        state = Locked(State(finish: finish))
    }

    func open(_ head: HTTPURLResponse) throws {
        let declared = head.expectedContentLength
        if declared > Int64(limit) { throw NetworkError.responseTooLarge(limit: limit) }
        state.withLock { state in
            state.head = head
            // Room for an honest length, which the check above bounds by the limit.
            if declared > 0 { state.body.reserveCapacity(Int(declared)) }
        }
    }

    func write(_ data: Data) throws {
        let fits = state.withLock { state -> Bool in
            let (total, overflow) = state.body.count.addingReportingOverflow(data.count)
            guard !overflow, total <= limit else { return false }
            state.body.append(data)
            return true
        }
        if !fits { throw NetworkError.responseTooLarge(limit: limit) }
    }

    func close(_ error: (any Error)?) {
        let (finish, outcome) = state.withLock { state -> ((@Sendable (Outcome) -> Void)?, Outcome) in
            defer {
                state.finish = nil
                state.body = Data()
            }
            if let error { return (state.finish, .failure(error)) }
            guard let head = state.head else { return (state.finish, .failure(URLError(.badServerResponse))) }
            return (state.finish, .success((state.body, head)))
        }
        finish?(outcome)
    }
}
