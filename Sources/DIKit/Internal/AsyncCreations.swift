/// The process-wide record of which async shared instances are being created, who waits for them, and
/// which waits would never end.
///
/// A task that wants a shared instance another task is creating suspends until that creation ends. Each
/// creating registration on the waiting task's path then waits, through it, for the wanted one: an edge
/// in a graph of waits. If the wanted registration's creation already waits, through such edges, for one
/// the waiting task is creating, suspending would close a circle, and the resolve fails instead.
enum AsyncCreations {
    /// Guards the graph of waits and every async registration's creation state.
    static let lock = Lock()
    // nonisolated(unsafe): only read or written while holding `lock`.
    nonisolated(unsafe) private static var waitsFor: [ObjectIdentifier: [ObjectIdentifier]] = [:]

    /// Whether the creation of `start` waits, directly or through others, for one of `targets`.
    /// Call with `lock` held.
    static func waits(from start: ObjectIdentifier, forAnyOf targets: Set<ObjectIdentifier>) -> Bool {
        var seen: Set<ObjectIdentifier> = []
        var pending = [start]
        while let current = pending.popLast() {
            if targets.contains(current) { return true }
            guard seen.insert(current).inserted else { continue }
            pending += waitsFor[current, default: []]
        }
        return false
    }

    /// Records that each of `waiters` waits for `wanted`. Call with `lock` held.
    static func add(waiters: [ObjectIdentifier], for wanted: ObjectIdentifier) {
        for waiter in waiters { waitsFor[waiter, default: []].append(wanted) }
    }

    /// Removes what ``add(waiters:for:)`` recorded. Call with `lock` held.
    static func remove(waiters: [ObjectIdentifier], for wanted: ObjectIdentifier) {
        for waiter in waiters {
            guard var wanting = waitsFor[waiter], let index = wanting.firstIndex(of: wanted) else { continue }
            wanting.remove(at: index)
            waitsFor[waiter] = wanting.isEmpty ? nil : wanting
        }
    }
}
