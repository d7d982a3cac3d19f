import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One attempt of a transfer: the URLSession task, its timeouts (idle and total, on the shared
/// ``DeadlineTimer``, re-armed once per idle period rather than per chunk), its sink, and the callers
/// waiting for its head or its end. Every outcome is decided once; later events are ignored.
final class TransferHandler: Sendable {
    typealias Progress = @Sendable (TransferCounts) -> Void

    struct State: @unchecked Sendable {
        // @unchecked Sendable: the task is only used for `resume()` and `cancel()`, which URLSessionTask
        // documents as thread-safe; FoundationNetworking does not annotate it `Sendable`.
        var task: URLSessionTask?
        var head: Result<HTTPURLResponse, any Error>?
        var end: Result<Void, any Error>?
        var headWaiter: CheckedContinuation<HTTPURLResponse, any Error>?
        var endWaiter: CheckedContinuation<Void, any Error>?
        var lastActivity: UInt64
        var counts = TransferCounts()
        var watch: DeadlineTimer.Watch?
        /// A `401` with a challenge, and its body, held until the session says whether it answers it.
        var held: (head: HTTPURLResponse, body: RefusedBody)?
        /// A held `401` was given out as the answer before its challenge came: its body outgrew what is
        /// held.
        var gaveOutHeld = false
    }

    let state: Locked<State>
    let sink: any TransferSink
    private let progress: Progress?
    let idleTimeout: Duration?
    let deadline: Duration?
    let startedAt: UInt64
    private let deadlines: DeadlineTimer

    /// - Parameters:
    ///   - startedAt: Where the total deadline counts from (the attempt's start, when it is made of
    ///     several transfers); now by default.
    init(
        sink: any TransferSink, idleTimeout: Duration?, deadline: Duration?, deadlines: DeadlineTimer,
        startedAt: UInt64? = nil, progress: Progress?
    ) {
        let now = DeadlineTimer.now
        self.sink = sink
        self.progress = progress
        self.idleTimeout = idleTimeout
        self.deadline = deadline
        self.startedAt = startedAt ?? now
        self.deadlines = deadlines
        state = Locked(State(lastActivity: now))
    }

    /// Whether the transfer has ended, one way or another.
    var hasEnded: Bool { state.withLock { $0.end != nil } }

    /// Whether the head has been delivered or held, or the transfer has ended.
    var hasHead: Bool { state.withLock { $0.head != nil || $0.held != nil || $0.end != nil } }

    // MARK: - Driven by the session

    func start(_ task: URLSessionTask) {
        let ended = state.withLock { state -> Bool in
            state.task = task
            return state.end != nil
        }
        if ended {
            // Never resumed, so no completion can race this cancel; it takes the task out of the
            // session's registry.
            task.cancel()
            return
        }
        // The idle clock starts with the transfer; the total deadline may have started before it. A
        // transfer without either (a whole-body request, timed by its caller) needs no watch.
        guard let first = nextDue(lastActivity: state.withLock { $0.lastActivity }) else {
            task.resume()
            return
        }
        let watch = deadlines.watch(until: first) { [weak self] now in self?.checkTimeouts(at: now) }
        let cancelWatch = state.withLock { state -> Bool in
            state.watch = watch
            return state.end != nil
        }
        if cancelWatch {
            // Ended while the watch was being set up: `end` already cancelled the task, never resumed.
            deadlines.cancel(watch)
            return
        }
        task.resume()
    }

    /// Takes `task`, already running, as this transfer's: a caller joining a background task of an
    /// earlier launch. Cancelling the caller cancels it.
    func attach(_ task: URLSessionTask) {
        state.withLock { $0.task = task }
    }

    /// The head arrived. Returns whether the body is wanted.
    func receive(head response: URLResponse) -> Bool {
        guard let head = response as? HTTPURLResponse else {
            fail(URLError(.badServerResponse))
            return false
        }
        // A transfer already ended (cancelled, timed out) gives its sink nothing more.
        guard !hasEnded else { return false }
        if Self.deliversChallengedHeads, head.statusCode == 401,
            head.value(forHTTPHeaderField: "WWW-Authenticate") != nil
        {
            state.withLock { $0.held = (head, RefusedBody()) }
            return true
        }
        return deliver(head)
    }

    /// Hands `head` to the sink and to the caller waiting for it. Returns whether the body is wanted.
    func deliver(_ head: HTTPURLResponse) -> Bool {
        do {
            try sink.open(head)
        } catch {
            fail(error)
            return false
        }
        let waiter = state.withLock { state -> CheckedContinuation<HTTPURLResponse, any Error>? in
            guard state.end == nil, state.head == nil else { return nil }
            state.lastActivity = DeadlineTimer.now
            state.head = .success(head)
            defer { state.headWaiter = nil }
            return state.headWaiter
        }
        waiter?.resume(returning: head)
        return !hasEnded
    }

    /// Body bytes arrived; `response` is the task's, taken as the head when none was reported (a
    /// background upload task reports none: "not called for background upload tasks", Apple's header
    /// says of the response delegate method).
    func receive(_ data: Data, response: @autoclosure () -> URLResponse?) {
        if !hasHead, let response = response(), !receive(head: response) { return }
        receive(data)
    }

    func receive(_ data: Data) {
        var outgrown: (head: HTTPURLResponse, body: RefusedBody)?
        let counts = state.withLock { state -> TransferCounts? in
            guard state.end == nil else { return nil }
            if let held = state.held {
                // A challenged answer's body, held (up to 1 MiB) in case it is the final answer. It is
                // not activity: a 401 whose body never ends must not hold off the idle timeout.
                guard !held.body.fits(data.count) else {
                    state.held?.body.append(data)
                    return nil
                }
                // Past that, it is given out as the answer, and the rest follows as any body does.
                outgrown = held
                state.held = nil
                state.gaveOutHeld = true
                return nil
            }
            state.lastActivity = DeadlineTimer.now
            state.counts.received += Int64(data.count)
            return state.counts
        }
        guard let counts else {
            if let outgrown, deliver(outgrown.head) {
                receive(outgrown.body.bytes)
                receive(data)
            }
            return
        }
        do {
            try sink.write(data)
        } catch {
            fail(error)
            return
        }
        progress?(counts)
    }

    func sent(_ total: Int64) {
        let counts = state.withLock { state -> TransferCounts? in
            guard state.end == nil else { return nil }
            state.lastActivity = DeadlineTimer.now
            state.counts.sent = total
            return state.counts
        }
        if let counts { progress?(counts) }
    }

    /// The task ended, with `response` as its last answer. A head URLSession never reported (a
    /// background upload task reports none) is taken from `response`, so a body-less answer is not
    /// mistaken for none.
    func complete(error: (any Error)?, response: URLResponse? = nil) {
        if error == nil, releaseHeldAnswer() { return }
        if error == nil, !hasHead, let head = response as? HTTPURLResponse {
            guard deliver(head) else { return }
        }
        finish(error.map { .failure($0) } ?? .success(()), cancellingTask: false)
    }

    // MARK: - Driven by the caller

    /// Ends the transfer with `error` and cancels its task, unless it has already ended.
    func fail(_ error: any Error) {
        finish(.failure(error), cancellingTask: true)
    }

    /// Waits for the response head.
    func head() async throws -> HTTPURLResponse {
        try await wait(for: \.head, as: \.headWaiter)
    }

    /// Waits for the transfer's end.
    func end() async throws {
        try await wait(for: \.end, as: \.endWaiter)
    }

    /// Waits until `outcome` is set (an ended transfer always has a head: the response, or its failure);
    /// cancelling the caller fails the transfer.
    private func wait<Value: Sendable>(
        for outcome: KeyPath<State, Result<Value, any Error>?>,
        as waiter: WritableKeyPath<State, CheckedContinuation<Value, any Error>?>
    ) async throws -> Value {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<Value, any Error>? in
                    if let ready = state[keyPath: outcome] { return ready }
                    state[keyPath: waiter] = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            fail(CancellationError())
        }
    }

    /// The bytes so far.
    var counts: TransferCounts { state.withLock { $0.counts } }

    // MARK: - Internals

    func finish(_ outcome: Result<Void, any Error>, cancellingTask: Bool) {
        let ended = state.withLock { state -> (State, Bool)? in
            guard state.end == nil else { return nil }
            state.end = outcome
            let headless = state.head == nil
            if headless {
                state.head = .failure(Self.error(of: outcome))
            }
            defer {
                state.headWaiter = nil
                state.endWaiter = nil
                state.watch = nil
            }
            return (state, headless)
        }
        guard let (snapshot, headless) = ended else { return }
        if let watch = snapshot.watch { deadlines.cancel(watch) }
        sink.close(Self.failure(of: outcome))
        if headless { snapshot.headWaiter?.resume(throwing: Self.error(of: outcome)) }
        snapshot.endWaiter?.resume(with: outcome)
        if cancellingTask, let task = snapshot.task { Self.cancel(task) }
    }

    /// Cancels `task` off the calling thread, after the caller has its answer. FoundationNetworking's
    /// `cancel()` waits for the session's work queue, which a fast sender keeps busy for as long as it
    /// sends (measured on loopback: seconds for 1 GiB, indefinitely for an endless body): called on the
    /// delegate queue, it stopped the delegate queue too, and the bytes still arriving waited in memory
    /// (gigabytes). Apart from it, the delegate keeps discarding them while the cancel waits.
    private static func cancel(_ task: URLSessionTask) {
        let handle = TaskHandle(task: task)
        DispatchQueue.global().async { handle.task.cancel() }
    }

    private static func failure(of outcome: Result<Void, any Error>) -> (any Error)? {
        if case .failure(let error) = outcome { return error }
        return nil
    }

    private static func error(of outcome: Result<Void, any Error>) -> any Error {
        failure(of: outcome) ?? URLError(.badServerResponse)
    }
}
