import Foundation

/// A thread-safe list that records what callbacks receive, for assertions.
public final class Recorder<Element: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `items` is only touched while holding `lock`.
    private let lock = NSLock()
    private var items: [Element] = []

    /// Creates an empty recorder.
    public init() {}

    /// Records `item`.
    public func append(_ item: Element) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    /// Everything recorded so far, in order.
    public var values: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
