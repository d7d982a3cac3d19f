#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One registration being built, on the stack of the thread that builds it.
///
/// Frames link to their parent, and a thread-local points at the innermost one, so a nested resolve
/// (through the ``Resolver`` or a direct container call) finds the path it is part of without any
/// allocation: the path names errors, detects cycles, and the root frame holds the graph scope's
/// instances. Factories are synchronous, so a frame never outlives the call that pushed it.
@usableFromInline
struct ResolutionFrame {
    @usableFromInline let registration: Unmanaged<RegistrationBase>
    @usableFromInline let parent: UnsafeMutablePointer<ResolutionFrame>?
    /// The graph scope's instances; only the root frame's is used, created on first need.
    @usableFromInline var graph: GraphInstances?

    @inlinable
    init(registration: RegistrationBase, parent: UnsafeMutablePointer<ResolutionFrame>?) {
        self.registration = Unmanaged.passUnretained(registration)
        self.parent = parent
        self.graph = nil
    }
}

/// The graph scope's instances for one top-level resolve.
@usableFromInline
final class GraphInstances {
    @usableFromInline var instances: [ObjectIdentifier: Any] = [:]

    @usableFromInline
    init() {}
}

/// The innermost frame of the resolve running on this thread.
@usableFromInline
enum ResolutionFrames {
    @usableFromInline
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    @inlinable
    static var current: UnsafeMutablePointer<ResolutionFrame>? {
        get { pthread_getspecific(key)?.assumingMemoryBound(to: ResolutionFrame.self) }
        set { pthread_setspecific(key, newValue) }
    }

    /// The services on the path ending at `frame`, outermost first.
    @usableFromInline
    static func path(from frame: UnsafeMutablePointer<ResolutionFrame>?) -> [String] {
        var names: [String] = []
        var cursor = frame
        while let current = cursor {
            names.append(current.pointee.registration.takeUnretainedValue().description.service)
            cursor = current.pointee.parent
        }
        return names.reversed()
    }

    /// The path ending at `frame` plus `requested`.
    @usableFromInline
    static func path(from frame: UnsafeMutablePointer<ResolutionFrame>?, appending requested: String)
        -> [String]
    {
        path(from: frame) + [requested]
    }

    /// Throws if `registration` is already being built on this thread: a cycle, named from its first
    /// occurrence to the repeat.
    @inlinable
    static func checkCycle(
        _ registration: RegistrationBase, from frame: UnsafeMutablePointer<ResolutionFrame>?
    ) throws(ResolutionError) {
        var cursor = frame
        while let current = cursor {
            if current.pointee.registration.takeUnretainedValue() === registration {
                throw cycleError(registration, from: frame)
            }
            cursor = current.pointee.parent
        }
    }

    @usableFromInline
    static func cycleError(
        _ registration: RegistrationBase, from frame: UnsafeMutablePointer<ResolutionFrame>?
    ) -> ResolutionError {
        let names = path(from: frame)
        let service = registration.description.service
        var chain: [String] = []
        var cursor = frame
        while let current = cursor {
            let name = current.pointee.registration.takeUnretainedValue().description.service
            chain.insert(name, at: 0)
            if current.pointee.registration.takeUnretainedValue() === registration { break }
            cursor = current.pointee.parent
        }
        let description = registration.description
        return ResolutionError(
            reason: .cycle(chain + [service]), service: service, name: description.name,
            arguments: description.arguments, path: names + [service], closeMatches: [])
    }

    /// The root frame's graph instances, created on first use.
    @usableFromInline
    static func graph(from frame: UnsafeMutablePointer<ResolutionFrame>) -> GraphInstances {
        var root = frame
        while let parent = root.pointee.parent { root = parent }
        if let graph = root.pointee.graph { return graph }
        let graph = GraphInstances()
        root.pointee.graph = graph
        return graph
    }
}
