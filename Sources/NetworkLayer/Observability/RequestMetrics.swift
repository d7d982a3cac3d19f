/// The timing and size of one attempt of a request: what a middleware, the caller (through
/// ``NetworkResponse/metrics``) and an event handler (``NetworkEvent``) can read.
public struct RequestMetrics: Sendable, Equatable {
    /// 1 for the first attempt; a middleware that sends again (``RetryMiddleware``,
    /// ``TokenRefreshMiddleware``) makes the next.
    public let attempt: Int
    /// When the attempt reached the transport.
    public let start: ContinuousClock.Instant
    /// When the response head arrived, for streams, downloads and uploads; `nil` for a whole-body request,
    /// whose head URLSession reports only with its body (and on Linux keeps no task metrics).
    public internal(set) var responseStart: ContinuousClock.Instant?
    /// When the attempt's transport call returned or failed: for a stream, when its head arrived (its
    /// body is the caller's to read).
    public internal(set) var end: ContinuousClock.Instant?
    /// The request body's bytes: the body, or the uploaded file.
    public internal(set) var bytesSent: Int64
    /// The response body's bytes received by the transport call.
    public internal(set) var bytesReceived: Int64 = 0
    /// The status of the response, when one arrived.
    public internal(set) var statusCode: Int?
    /// Whether the attempt shared another caller's transport call
    /// (``NetworkProvider/Configuration/coalescesIdenticalGETs``).
    public internal(set) var isCoalesced = false

    /// Whether this attempt repeats an earlier one.
    public var isRetry: Bool { attempt > 1 }

    /// From start to end, once ended.
    public var duration: Duration? { end.map { $0 - start } }

    /// From start to the response head, when known.
    public var timeToResponse: Duration? { responseStart.map { $0 - start } }
}

/// The attempts of one request so far, shared by the middlewares (``RequestContext/metrics``) and the
/// provider. Safe to read from any task.
public final class RequestMetricsLog: Sendable {
    private let state = Locked<[RequestMetrics]>([])

    init() {}

    /// Every attempt so far, in order.
    public var attempts: [RequestMetrics] { state.withLock { $0 } }

    /// The latest attempt, if any.
    public var last: RequestMetrics? { state.withLock { $0.last } }

    /// Whether the request was sent more than once.
    public var isRetried: Bool { state.withLock { $0.count > 1 } }

    /// Starts the next attempt and returns it.
    func begin(bytesSent: Int64) -> RequestMetrics {
        state.withLock { attempts in
            let metrics = RequestMetrics(attempt: attempts.count + 1, start: .now, bytesSent: bytesSent)
            attempts.append(metrics)
            return metrics
        }
    }

    /// Updates attempt `number`.
    func update(_ number: Int, _ change: (inout RequestMetrics) -> Void) {
        state.withLock { attempts in
            guard attempts.indices.contains(number - 1) else { return }
            change(&attempts[number - 1])
        }
    }
}
