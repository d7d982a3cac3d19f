import Foundation
import TestSupport

/// The next element of `stream`, or nil if none arrives within `seconds`: a bounded wait, so a broken
/// delivery fails the test instead of hanging the run.
func nextElement<Element: Sendable>(
    of iterator: inout AsyncStream<Element>.Iterator, within seconds: Double = 5
) async -> Element? {
    let timeout = Task {
        try? await Task.sleep(for: .seconds(seconds))
    }
    let box = IteratorBox(iterator)
    let result = await withTaskGroup(of: Element?.self) { group -> Element? in
        group.addTask { await box.next() }
        group.addTask {
            await timeout.value
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        timeout.cancel()
        return first
    }
    iterator = box.iterator
    return result
}

/// Lets a task group own an iterator for one `next()`.
private final class IteratorBox<Element: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: only one task at a time calls `next()` (the group's first child), and the
    // caller reads `iterator` back after the group has finished.
    var iterator: AsyncStream<Element>.Iterator

    init(_ iterator: AsyncStream<Element>.Iterator) {
        self.iterator = iterator
    }

    func next() async -> Element? {
        await iterator.next()
    }
}
