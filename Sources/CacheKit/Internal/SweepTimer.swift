import Dispatch

/// Calls `action` every `interval` seconds on a private queue until cancelled or deallocated.
///
/// A `DispatchSourceTimer`, not a Foundation `Timer`: it fires without a run loop, in command-line tools,
/// servers and tests (a `Timer` never fires there).
final class SweepTimer: @unchecked Sendable {
    // @unchecked Sendable: `source` is set once in `init` and then only cancelled in `deinit`; dispatch
    // sources are themselves thread-safe, they just are not annotated `Sendable` in the Dispatch overlay.
    private let source: any DispatchSourceTimer

    init(interval: Double, label: String, action: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: label, qos: .utility)
        source = Self.makeSource(queue: queue, interval: interval, action: action)
        source.resume()
    }

    deinit {
        source.cancel()
    }

    /// Built in a nonisolated function so the handler is never inferred to be main-actor isolated.
    private static func makeSource(
        queue: DispatchQueue, interval: Double, action: @escaping @Sendable () -> Void
    ) -> any DispatchSourceTimer {
        let source = DispatchSource.makeTimerSource(queue: queue)
        let nanoseconds = Int(max(interval, 0.001) * 1_000_000_000)
        source.schedule(
            deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
            leeway: .nanoseconds(nanoseconds / 10))
        source.setEventHandler(handler: action)
        return source
    }
}
