#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One top-level resolve in progress on one thread: the path of services being built (for messages and
/// cycle detection) and the instances of the graph scope.
///
/// It is created by the first resolve that runs a factory and shared by every nested resolve, whether
/// the factory uses the ``Resolver`` it was given or calls a container directly (found through a
/// thread-local, since factories are synchronous and run on the resolving thread).
final class ResolutionContext {
    private(set) var path: [RegistrationDescription] = []
    private var pathIdentities: [ObjectIdentifier] = []
    var graphInstances: [ObjectIdentifier: Any] = [:]

    /// The services being resolved, outermost first, ending with `requested`.
    func renderedPath(appending requested: RegistrationDescription) -> [String] {
        path.map(\.service) + [requested.service]
    }

    /// Pushes `registration` on the path, or throws if it is already being built.
    func enter(_ identity: ObjectIdentifier, _ description: RegistrationDescription) throws(ResolutionError) {
        if let start = pathIdentities.firstIndex(of: identity) {
            let cycle = path[start...].map(\.service) + [description.service]
            throw ResolutionError(
                reason: .cycle(cycle), service: description.service, name: description.name,
                arguments: description.arguments, path: renderedPath(appending: description), closeMatches: []
            )
        }
        path.append(description)
        pathIdentities.append(identity)
    }

    func leave() {
        path.removeLast()
        pathIdentities.removeLast()
    }

    // MARK: - The context active on this thread

    /// Runs `body` with a context: the one already active on this thread (a nested resolve), or a new one
    /// made active for the duration.
    static func withActive<Result>(
        _ body: (ResolutionContext) throws(ResolutionError) -> Result
    ) throws(ResolutionError) -> Result {
        if let raw = pthread_getspecific(threadKey.key) {
            return try body(Unmanaged<ResolutionContext>.fromOpaque(raw).takeUnretainedValue())
        }
        let context = ResolutionContext()
        pthread_setspecific(threadKey.key, Unmanaged.passUnretained(context).toOpaque())
        defer { pthread_setspecific(threadKey.key, nil) }
        return try body(context)
    }

    private static let threadKey = ThreadKey()
}

/// A pthread key created once per process.
private final class ThreadKey: Sendable {
    // The key is written once in `init` before the object is shared, then only read.
    let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        self.key = key
    }
}
