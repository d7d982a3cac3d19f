/// One async factory running, on the path of the async resolution that asked for it.
///
/// Synchronous resolves keep their path in frames on the thread's stack; a suspension may resume on
/// another thread, so an async resolution carries its path in a task-local value instead. Child tasks a
/// factory starts (`async let`, task groups) inherit it, so they resolve as part of the same path.
@usableFromInline
final class AsyncPathNode: Sendable {
    let registration: RegistrationBase
    let parent: AsyncPathNode?
    /// The graph scope's instances of the top-level resolve, shared by every node below it.
    let graph: GraphInstances
    /// Set once the node's factory has returned: an unstructured `Task` it started inherits the node
    /// but is not part of the resolution any more.
    private let finished = Locked(false)

    init(registration: RegistrationBase, parent: AsyncPathNode?) {
        self.registration = registration
        self.parent = parent
        self.graph = parent?.graph ?? GraphInstances()
    }

    /// Whether the node's factory has returned.
    var isFinished: Bool { finished.withLock { $0 } }

    /// Marks the node's factory as returned.
    func finish() { finished.withLock { $0 = true } }

    /// The registrations on the path, innermost (this node's) first.
    var registrations: [RegistrationBase] {
        var result: [RegistrationBase] = []
        var node: AsyncPathNode? = self
        while let current = node {
            result.append(current.registration)
            node = current.parent
        }
        return result
    }

    /// The services on the path ending here, outermost first.
    var path: [TypeName] {
        registrations.reversed().map(\.description.service)
    }
}

/// The async resolution the current task is part of.
enum AsyncResolution {
    @TaskLocal static var current: AsyncPathNode?

    /// The async resolution in progress in this task: `nil` in a task that merely inherited the path of
    /// a factory that has since returned (an unstructured `Task` it started).
    static var active: AsyncPathNode? {
        guard let node = current, !node.isFinished else { return nil }
        return node
    }

    /// Throws if `registration` is already being built on the async path ending at `parent`.
    static func checkCycle(_ registration: RegistrationBase, from parent: AsyncPathNode?)
        throws(ResolutionError)
    {
        guard let parent else { return }
        let innermostFirst = parent.registrations
        guard let index = innermostFirst.firstIndex(where: { $0 === registration }) else { return }
        throw ResolutionFrames.cycleError(
            registration, chain: innermostFirst[...index].reversed(), path: parent.path)
    }
}
