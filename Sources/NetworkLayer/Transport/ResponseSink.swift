import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where one attempt's answer goes, and the one place that decides, at the head, whether its status is
/// accepted: every transfer but a download task (``DownloadTaskSink``) feeds one, on every transport.
///
/// An accepted body goes to the sink's ``Destination``: kept whole in memory (within the limit: a
/// `Content-Length` over it is refused before any byte is read, and bytes past it stop the transfer
/// with ``NetworkError/responseTooLarge(limit:)``), handed to a stream's reader, or written into a
/// download's file. A refused status's body goes nowhere but into a ``RefusedBody`` (its first bytes, at
/// most the limit and 1 MiB), whatever the destination; once more arrives than fits, the transfer stops
/// with ``RefusedBodyKept`` and the caller still gets the status.
///
/// The sink gives its answer once, to the closure ``answers(to:)`` set: for an accepted stream, as soon
/// as the head arrives (the body follows through the stream); for anything else, when the transfer ends.
final class ResponseSink: TransferSink, Sendable {
    typealias Answer = Result<(Data, HTTPURLResponse), any Error>

    /// Where an accepted body goes.
    enum Destination: Sendable {
        /// Kept whole in memory, within the limit.
        case whole
        /// Handed to a stream's reader as it arrives.
        case stream(ChunkChannel)
        /// Written into a download's file, reporting `progress` as it grows.
        case file(ProviderWrittenFile, progress: (@Sendable (TransferProgress) -> Void)?)
    }

    private struct State: @unchecked Sendable {
        // @unchecked Sendable: the head (here and in an early answer) is read, never mutated, after it
        // arrives; Foundation does not annotate HTTPURLResponse `Sendable` on every platform. Every
        // other field is Sendable, and the whole is only touched under `state`'s lock.
        var head: HTTPURLResponse?
        var isAccepted = false
        /// A whole body, as it arrives.
        var body = Data()
        /// A refused status's body, kept instead of the destination's.
        var refused: RefusedBody?
        /// The bytes of body handed to the sink.
        var received: Int64 = 0
        var isClosed = false
        var answer: (@Sendable (Answer) -> Void)?
        /// An answer given before ``answers(to:)`` was called.
        var early: Answer?
    }

    /// The most bytes reserved up front on the word of a `Content-Length`, which a server may lie about.
    static let largestReservation = 1 << 20

    let destination: Destination
    private let limit: Int
    private let accepts: any StatusCodeSet
    private let hasNoBody: Bool
    private let record: AttemptRecord?
    private let state = Locked(State())

    /// - Parameters:
    ///   - destination: Where an accepted body goes.
    ///   - rules: The statuses the endpoint accepts, and its limit: the most bytes a whole body may
    ///     have, and a refused one keeps (1 MiB at most).
    ///   - method: The request's method: a `HEAD` answer has a `Content-Length` but no body.
    ///   - record: Where the head's arrival is written; `nil` when the caller does not time it.
    init(_ destination: Destination, rules: AttemptRules, method: String?, record: AttemptRecord? = nil) {
        self.destination = destination
        limit = rules.limit
        accepts = rules.accepts
        self.record = record
        hasNoBody = method == "HEAD"
    }

    /// Sets where the answer goes: called once, before the transfer starts. An answer already given is
    /// handed over at once, and nothing more after it.
    func answers(to answer: @escaping @Sendable (Answer) -> Void) {
        let early = state.withLock { state -> Answer? in
            guard let early = state.early else {
                state.answer = answer
                return nil
            }
            state.early = nil
            return early
        }
        if let early { answer(early) }
    }

    /// Whether the head's status was refused (`false` before the head).
    var isRefused: Bool { state.withLock { $0.refused != nil } }

    /// The bytes of body the transfer handed over, refused ones included.
    var received: Int64 { state.withLock { $0.received } }

    /// Feeds a body that arrived whole (from a session that returns bodies whole), as a transfer would:
    /// the same decision and the same answer as ``open(_:)``, ``write(_:)`` and ``close(_:)`` in turn.
    func receive(_ head: HTTPURLResponse, body: Data) {
        guard case .whole = destination else {
            // A stream's body that arrived whole is held whole: it is bounded by the limit, as a whole
            // body is, before the caller has the stream.
            if case .stream = destination, accepts.contains(head.statusCode), body.count > limit {
                record?.responseStarted()
                close(NetworkError.responseTooLarge(limit: limit))
                return
            }
            do {
                try open(head)
                if !body.isEmpty { try write(body, isWhole: true) }
                close(nil)
            } catch {
                close(error)
            }
            return
        }
        // A whole body into a whole destination: decided and answered under one lock, not four.
        record?.responseStarted()
        let accepted = accepts.contains(head.statusCode)
        var answer: Answer
        do {
            if accepted {
                _ = try declaredLength(of: head)
                if body.count > limit { throw NetworkError.responseTooLarge(limit: limit) }
            }
            answer = .success((accepted ? body : RefusedBody(body, capacity: limit).bytes, head))
        } catch {
            answer = .failure(error)
        }
        let taker = state.withLock { state -> (@Sendable (Answer) -> Void)? in
            guard !state.isClosed else { return nil }
            (state.head, state.isAccepted, state.isClosed) = (head, accepted, true)
            state.received = Int64(body.count)
            if !accepted { state.refused = RefusedBody(capacity: 0) }
            return Self.taker(of: answer, in: &state)
        }
        taker?(answer)
    }

    /// The body length an accepted head declares, `0` for an answer that has none.
    /// - Throws: ``NetworkError/responseTooLarge(limit:)`` for a length over the limit.
    private func declaredLength(of head: HTTPURLResponse) throws -> Int64 {
        // A HEAD answer, a 1xx, 204 or 304 has no body, whatever its Content-Length says.
        let bodiless = hasNoBody || head.statusCode < 200 || head.statusCode == 204 || head.statusCode == 304
        let declared = bodiless ? 0 : head.expectedContentLength
        if declared > Int64(limit) { throw NetworkError.responseTooLarge(limit: limit) }
        return declared
    }

    func open(_ head: HTTPURLResponse) throws {
        // A sink already closed (its caller timed out or left) takes nothing more: a late answer
        // must not open a file or reach a reader.
        if state.withLock({ $0.isClosed }) { throw CancellationError() }
        record?.responseStarted()
        let accepted = accepts.contains(head.statusCode)
        var reserved: Int64 = 0
        if accepted {
            switch destination {
            case .whole:
                reserved = min(try declaredLength(of: head), Int64(min(limit, Self.largestReservation)))
            case .stream:
                break
            case .file(let file, let progress):
                try file.open(head)
                progress?(file.progress)
            }
        }
        let closedMeanwhile = state.withLock { state -> Bool in
            guard !state.isClosed else { return true }
            state.head = head
            state.isAccepted = accepted
            if !accepted { state.refused = RefusedBody(capacity: limit) }
            if reserved > 0 { state.body.reserveCapacity(Int(reserved)) }
            return false
        }
        if closedMeanwhile {
            // Closed while the file was opened: the file is closed again.
            if accepted, case .file(let file, _) = destination { file.close() }
            throw CancellationError()
        }
        // A stream's reader gets the head now; the body follows through the channel.
        if accepted, case .stream = destination { give(.success((Data(), head))) }
    }

    func write(_ data: Data) throws {
        try write(data, isWhole: false)
    }

    /// Takes the next bytes; `isWhole` when they are the whole body, already in memory, which a
    /// stream's buffer holds whatever its limit (there is no sender to outrun its reader).
    private func write(_ data: Data, isWhole: Bool) throws {
        enum Next { case kept, full, tooLarge, destination }
        let next = state.withLock { state -> Next in
            guard !state.isClosed else { return .kept }
            state.received += Int64(data.count)
            // A refused status's body is cut, not refused: the status is what the caller needs.
            if state.refused != nil {
                // Full once more arrives than fits: a body that ends exactly at the limit ends by itself.
                let fits = state.refused?.fits(data.count) ?? true
                state.refused?.append(data)
                return fits ? .kept : .full
            }
            guard case .whole = destination else { return .destination }
            guard data.count > limit - state.body.count else {
                state.body.append(data)
                return .kept
            }
            return .tooLarge
        }
        switch next {
        case .kept: break
        case .full: throw RefusedBodyKept()
        case .tooLarge: throw NetworkError.responseTooLarge(limit: limit)
        case .destination:
            switch destination {
            case .whole: break
            case .stream(let channel):
                if isWhole { channel.hold(data) } else { try channel.write(data) }
            case .file(let file, let progress):
                try file.write(data)
                progress?(file.progress)
            }
        }
    }

    func close(_ error: (any Error)?) {
        let (answer, accepted) = state.withLock { state -> (Answer?, Bool) in
            guard !state.isClosed else { return (nil, false) }
            state.isClosed = true
            defer {
                state.body = Data()
                state.refused = state.refused.map { _ in RefusedBody(capacity: 0) }
            }
            guard let head = state.head else {
                return (.failure(error ?? URLError(.badServerResponse)), false)
            }
            if let error, !(error is RefusedBodyKept) { return (.failure(error), state.isAccepted) }
            if let refused = state.refused { return (.success((refused.bytes, head)), false) }
            return (.success((state.body, head)), true)
        }
        guard let answer else { return }
        switch destination {
        case .whole: break
        case .stream(let channel):
            // The reader, who already has the head, learns how the body ended.
            if accepted { channel.close(error) }
        case .file(let file, _):
            // A transfer that failed closes the file (a resume opens it again, checked); one that ended
            // well leaves it open for the next window, or for ``ProviderWrittenFile/finishWriting()``.
            if error != nil { file.close() }
        }
        // An accepted stream gave its answer at the head; a failure after it reaches the reader only.
        if case .stream = destination, accepted { return }
        give(answer)
    }

    private func give(_ answer: Answer) {
        let taker = state.withLock { Self.taker(of: answer, in: &$0) }
        taker?(answer)
    }

    /// Who takes `answer`, called with the lock held: the closure ``answers(to:)`` set, taken out so it
    /// is called once, after unlocking; `nil` when none is set yet, and the first answer is kept for it.
    private static func taker(
        of answer: Answer, in state: inout State
    ) -> (@Sendable (Answer) -> Void)? {
        guard let taker = state.answer else {
            if state.early == nil { state.early = answer }
            return nil
        }
        state.answer = nil
        return taker
    }
}

/// Ends a transfer whose refused body's first bytes are kept: the rest is not worth receiving.
struct RefusedBodyKept: Error {}
