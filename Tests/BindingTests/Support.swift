import Foundation

/// A thread-safe list that records what subscribers receive, for assertions.
final class Recorder<Element: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `items` is only touched while holding `lock`.
    private let lock = NSLock()
    private var items: [Element] = []

    func append(_ item: Element) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    var values: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

/// A Sendable class standing in for a view or view model that owns subscriptions.
final class Owner: Sendable {
    let name: String
    init(name: String = "owner") { self.name = name }
}
