#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One registration being built, on the stack of the thread that builds it.
///
/// Frames link to their parent, and this thread's slot points at the innermost one, so a nested resolve
/// (through the ``Resolver`` or a direct container call) finds the path it is part of without any
/// allocation: the path names errors, detects cycles, and the root frame holds the graph scope's
/// instances. Factories are synchronous, so a frame never outlives the call that pushed it.
@usableFromInline
struct ResolutionFrame {
    @usableFromInline let registration: Unmanaged<RegistrationBase>
    @usableFromInline let parent: UnsafeMutablePointer<ResolutionFrame>?
    /// The graph scope's instances; only the root frame's is used, created on first need.
    @usableFromInline var graph: GraphInstances?
    /// For the root frame of a synchronous resolve made inside an async factory: the async path above
    /// it, so errors and verification see the whole path.
    @usableFromInline let asyncParent: AsyncPathNode?

    @inlinable
    init(registration: RegistrationBase, parent: UnsafeMutablePointer<ResolutionFrame>?) {
        self.registration = Unmanaged.passUnretained(registration)
        self.parent = parent
        self.graph = nil
        self.asyncParent = nil
    }

    /// The root frame standing for the async factory of `node` while it resolves synchronously.
    init(standingFor node: AsyncPathNode) {
        self.registration = Unmanaged.passUnretained(node.registration)
        self.parent = nil
        self.graph = node.graph
        self.asyncParent = node.parent
    }
}

/// The graph scope's instances for one top-level resolve.
///
/// Locked because an async resolution shares it with the child tasks its factories start.
@usableFromInline
final class GraphInstances: Sendable {
    private let instances = Locked<[ObjectIdentifier: any Sendable]>([:])

    @usableFromInline
    init() {}

    /// The instance made in this graph for `registration`, if any.
    func instance<Service: Sendable>(of registration: RegistrationBase, as type: Service.Type) -> Service? {
        instances.withLock { $0[ObjectIdentifier(registration)] } as? Service
    }

    /// Keeps `made` for `registration` unless another was kept first, and returns the one kept.
    func keep<Service: Sendable>(_ made: Service, for registration: RegistrationBase) -> Service {
        let kept = instances.withLock { instances -> (any Sendable)? in
            if let existing = instances[ObjectIdentifier(registration)] { return existing }
            instances[ObjectIdentifier(registration)] = made
            return nil
        }
        return kept as? Service ?? made
    }
}

/// The pthread key of ``FrameSlot``s.
@usableFromInline
typealias FrameKey = pthread_key_t

/// What one thread keeps for resolving: its innermost frame, and which stripe of every container's
/// ``ReadWriteLock`` it reads.
@usableFromInline
struct ThreadResolution {
    @usableFromInline var frame: UnsafeMutablePointer<ResolutionFrame>?
    @usableFromInline let stripe: Int

    init(stripe: Int) {
        self.frame = nil
        self.stripe = stripe
    }
}

/// Where a thread's ``ThreadResolution`` is kept, reached through a pthread key.
@usableFromInline
typealias FrameSlot = UnsafeMutablePointer<ThreadResolution>

/// The innermost frame of the resolve running on this thread.
///
/// Each thread gets one slot, made on its first resolve and freed when the thread ends (the key's
/// destructor). A resolve finds the slot once and a factory's frame is pushed and popped by writing it,
/// where setting the thread-local itself twice per factory cost about 35 instructions a call. The slot
/// also holds the thread's lock stripe, given out in turn.
@usableFromInline
enum ResolutionFrames {
    /// The key of this thread's ``FrameSlot``. Each container's lock copies it when it is made
    /// (``ReadWriteLock/threadKey``), so a resolve reads a stored property instead of passing through
    /// this global's lazy initialisation.
    @usableFromInline
    static let key: FrameKey = {
        var key = pthread_key_t()
        // The slot is `malloc`ed by `makeSlot`; `free` takes the non-optional pointer Darwin passes
        // and the optional one glibc passes alike.
        let created = pthread_key_create(&key) { free($0) }
        // Only when the process already holds every key it may (1,024 on Linux, 512 on Darwin); a key
        // left at 0 could be another library's, and writing frames through it would corrupt memory.
        precondition(created == 0, "DIKit could not create its thread key (error \(created))")
        return key
    }()

    /// The stripe the next thread to resolve is given.
    static let nextStripe = Locked(0)

    /// This thread's slot, made on first use.
    @inlinable @inline(__always)
    static func slot(_ key: FrameKey) -> FrameSlot {
        if let slot = pthread_getspecific(key) {
            return slot.assumingMemoryBound(to: ThreadResolution.self)
        }
        return makeSlot(key)
    }

    @usableFromInline
    static func makeSlot(_ key: FrameKey) -> FrameSlot {
        // Two words per thread, for the life of the thread. If even that cannot be allocated the
        // process is out of memory, which Swift's own allocations treat as fatal too.
        guard let raw = malloc(MemoryLayout<ThreadResolution>.stride) else {
            fatalError("DIKit: out of memory for a thread's resolution slot")
        }
        let stripe = nextStripe.withLock { next in
            defer { next = (next + 1) % ReadWriteLock.stripeCount }
            return next
        }
        let slot = raw.bindMemory(to: ThreadResolution.self, capacity: 1)
        slot.initialize(to: ThreadResolution(stripe: stripe))
        // Fails only for an invalid key (checked when it was made) or without memory; a slot not kept
        // would be made again by every resolve, and the frames on it lost.
        let kept = pthread_setspecific(key, raw)
        precondition(kept == 0, "DIKit could not keep a thread's resolution slot (error \(kept))")
        return slot
    }

    /// The innermost frame on this thread, for the paths outside the hot one.
    @usableFromInline
    static var current: UnsafeMutablePointer<ResolutionFrame>? {
        get { slot(key).pointee.frame }
        set { slot(key).pointee.frame = newValue }
    }

    /// The services on the path ending at `frame`, outermost first.
    @usableFromInline
    static func path(from frame: UnsafeMutablePointer<ResolutionFrame>?) -> [TypeName] {
        var names: [TypeName] = []
        var cursor = frame
        var asyncParent: AsyncPathNode?
        while let current = cursor {
            names.append(current.pointee.registration.takeUnretainedValue().description.service)
            asyncParent = current.pointee.asyncParent
            cursor = current.pointee.parent
        }
        return (asyncParent?.path ?? []) + names.reversed()
    }

    /// The path ending at `frame` plus `requested`.
    @usableFromInline
    static func path(from frame: UnsafeMutablePointer<ResolutionFrame>?, appending requested: TypeName)
        -> [TypeName]
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
        var chain: [RegistrationBase] = []
        var cursor = frame
        while let current = cursor {
            let link = current.pointee.registration.takeUnretainedValue()
            chain.insert(link, at: 0)
            if link === registration { break }
            cursor = current.pointee.parent
        }
        return cycleError(registration, chain: chain, path: path(from: frame))
    }

    /// The error for a cycle: `chain` runs from the first occurrence of `registration` to the last
    /// link before the repeat, `path` is the whole path before the repeat.
    static func cycleError(_ registration: RegistrationBase, chain: [RegistrationBase], path: [TypeName])
        -> ResolutionError
    {
        let service = registration.description.service
        let cycle = chain.map(\.description.service) + [service]
        return ResolutionError(
            reason: { display in .cycle(cycle.map(display.callAsFunction)) },
            requested: registration.description,
            path: path + [service])
    }

    /// The root frame's graph instances, created on first use.
    @usableFromInline
    static func graph(from frame: UnsafeMutablePointer<ResolutionFrame>) -> GraphInstances {
        var root = frame
        while let parent = root.pointee.parent { root = parent }
        if let graph = root.pointee.graph { return graph }
        // A new top-level resolve: its graph instances are made on first need.
        let graph = GraphInstances()
        root.pointee.graph = graph
        return graph
    }
}
