import Foundation

/// A registration with its types erased, as the container stores it.
@usableFromInline
class RegistrationBase: @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable; the mutable instance storage of the
    // subclass is guarded by `ownerLock`, the lock of the one container that holds the registration.
    @usableFromInline let key: RegistrationKey
    @usableFromInline let scope: Scope
    @usableFromInline let ownerLock: ReadWriteLock
    let description: RegistrationDescription
    /// Set only on the throwaway copies ``Container/verify()`` resolves: records who captured whom.
    @usableFromInline let recorder: VerificationRecorder?
    /// A transient registration outside verification: every resolve just runs the factory, so the
    /// container calls ``Registration/make`` directly, inlined where it is specialised.
    @usableFromInline let makesDirectly: Bool
    /// A type forwarded by ``Registered/implements(_:)``: it hands over another registration's instance
    /// and keeps nothing, so verification looks through it.
    let isForwarding: Bool

    @usableFromInline
    init(
        key: RegistrationKey, scope: Scope, ownerLock: ReadWriteLock, description: RegistrationDescription,
        recorder: VerificationRecorder?, isForwarding: Bool = false
    ) {
        self.key = key
        self.scope = scope
        self.ownerLock = ownerLock
        self.description = description
        self.recorder = recorder
        self.isForwarding = isForwarding
        self.makesDirectly = scope == .transient && recorder == nil
    }

    var takesArguments: Bool { false }

    /// A copy with the same factory and no cached instances, owned by the container of `lock`.
    func freshCopy(ownerLock lock: ReadWriteLock, recorder: VerificationRecorder?) -> RegistrationBase {
        self
    }

    /// Drops cached singleton, custom-scope and weak instances.
    func releaseInstances() {}

    /// Resolves with no arguments, for ``Container/verify()``.
    func verify(requester: Container, owner: Container) throws(ResolutionError) {}

    /// Resolves with no arguments, awaiting an async factory, for ``Container/verifyAsync()``.
    func verifyAsync(requester: Container, owner: Container) async throws(ResolutionError) {
        try verify(requester: requester, owner: owner)
    }
}

/// One factory, and the instances its scope keeps.
@usableFromInline
final class Registration<Service: Sendable, Arguments>: RegistrationBase, @unchecked Sendable {
    // @unchecked Sendable: see `RegistrationBase`; `kept` is only touched while holding `ownerLock`, and
    // `factory` is an immutable @Sendable closure.
    @usableFromInline typealias Factory = @Sendable (Resolver, Arguments) throws -> Service

    @usableFromInline let factory: Factory
    /// The instance given to `register(_:name:instance:)`, which every copy keeps.
    let fixedInstance: Service?
    /// The instance the scope keeps. Guarded by `ownerLock`, which rules out overlapping accesses, so
    /// the dynamic exclusivity check is left out of the hot path.
    @usableFromInline @exclusivity(unchecked) var kept: KeptInstance<Service>
    /// Serialises the first creation of a shared instance, so it happens exactly once.
    let creationGate = CreationGate()

    @usableFromInline
    init(
        name: String?, scope: Scope, ownerLock: ReadWriteLock, fixedInstance: Service? = nil,
        kind: RegistrationDescription.Kind = .synchronous, recorder: VerificationRecorder? = nil,
        isForwarding: Bool = false, factory: @escaping Factory
    ) {
        self.factory = factory
        self.fixedInstance = fixedInstance
        self.kept = KeptInstance(fixedInstance)
        super.init(
            key: RegistrationKey(Service.self, Arguments.self, name: name), scope: scope,
            ownerLock: ownerLock,
            description: RegistrationDescription(Service.self, Arguments.self, name: name, kind: kind),
            recorder: recorder, isForwarding: isForwarding)
    }

    @usableFromInline
    convenience init(name: String?, instance: Service, ownerLock: ReadWriteLock) {
        self.init(name: name, scope: .singleton, ownerLock: ownerLock, fixedInstance: instance) { _, _ in
            instance
        }
    }

    override var takesArguments: Bool { Arguments.self != Void.self }

    override func freshCopy(ownerLock lock: ReadWriteLock, recorder: VerificationRecorder?)
        -> RegistrationBase
    {
        Registration(
            name: key.name, scope: scope, ownerLock: lock, fixedInstance: fixedInstance,
            kind: description.kind, recorder: recorder, isForwarding: isForwarding, factory: factory)
    }

    override func releaseInstances() {
        let released = ownerLock.withLock { kept.release(keeping: fixedInstance) }
        // Released after unlocking: the instance's deinit may resolve from this container.
        withExtendedLifetime(released) {}
    }

    override func verify(requester: Container, owner: Container) throws(ResolutionError) {
        guard let noArguments = () as? Arguments else { return }
        _ = try instance(arguments: noArguments, requester: requester, owner: owner)
    }

    // MARK: - Resolving

    /// An instance for `arguments`, made or shared according to the scope.
    /// - Parameters:
    ///   - requester: The container asked; transient and graph factories resolve their dependencies there.
    ///   - owner: The container holding this registration; shared (singleton, custom, weak) instances
    ///     resolve their dependencies there, so a child's overrides never leak into its parent's shared
    ///     instances.
    @usableFromInline
    func instance(arguments: Arguments, requester: Container, owner: Container) throws(ResolutionError)
        -> Service
    {
        let slot = ResolutionFrames.slot(ownerLock.threadKey)
        let parent = slot.pointee.frame
        if let recorder { recorder.record(self, parent: parent) }
        switch scope {
        case .transient:
            return try make(arguments, resolvingFrom: requester, slot: slot, parent: parent)
        case .graph:
            guard let parent else {
                return try make(arguments, resolvingFrom: requester, slot: slot, parent: nil)
            }
            let graph = ResolutionFrames.graph(from: parent)
            if let existing = graph.instance(of: self, as: Service.self) { return existing }
            return graph.keep(
                try make(arguments, resolvingFrom: requester, slot: slot, parent: parent), for: self)
        case .singleton, .weak, .custom:
            if let existing = sharedInstance() { return existing }
            // A cycle back to this registration must be reported before waiting at the gate, which this
            // thread would otherwise already hold.
            try ResolutionFrames.checkCycle(self, from: parent)
            try enterCreationGate(parent: parent)
            defer { creationGate.leave() }
            if let existing = sharedInstance() { return existing }
            let generation = ownerLock.withReadLock { kept.generation }
            let made = try make(arguments, resolvingFrom: owner, slot: slot, parent: parent)
            try keep(made, ifStillAt: generation) {
                ResolutionFrames.path(from: parent, appending: self.description.service)
            }
            return made
        }
    }

    /// Waits until no other thread is creating this registration's instance, or throws when that wait
    /// would never end.
    func enterCreationGate(parent: UnsafeMutablePointer<ResolutionFrame>?) throws(ResolutionError) {
        let path = { ResolutionFrames.path(from: parent, appending: self.description.service) }
        switch creationGate.enter(path: { NameDisplay.render(path()) }) {
        case .entered:
            return
        case .reentered:
            throw ResolutionFrames.cycleError(self, from: parent)
        case .wouldWaitForever(let ownerPath):
            throw ResolutionError(
                reason: .crossThreadCycle(otherThreadPath: ownerPath), requested: description, path: path())
        }
    }

    @usableFromInline
    func sharedInstance() -> Service? {
        ownerLock.withReadLock { kept.current }
    }

    /// Keeps `made` as the scope says (strongly for singleton and custom scopes, weakly for the weak
    /// one), unless the instances were released since `generation` (a `reset(scope:)` during creation).
    func keep(_ made: Service, ifStillAt generation: Int, path: () -> [TypeName]) throws(ResolutionError) {
        let object = try weakObject(for: made, path: path)
        let replaced = ownerLock.withLock {
            kept.keep(made, weakObject: object, forVerification: recorder != nil, ifStillAt: generation)
        }
        withExtendedLifetime(replaced) {}
    }

    /// Runs the factory in a new frame on this thread's resolution path.
    /// - Parameters:
    ///   - slot: This thread's slot (``ResolutionFrames/slot(_:)``), whose frame is `parent` now.
    ///   - parent: The innermost frame, read from `slot` by the caller.
    @inlinable
    func make(
        _ arguments: Arguments, resolvingFrom container: Container, slot: FrameSlot,
        parent: UnsafeMutablePointer<ResolutionFrame>?
    ) throws(ResolutionError) -> Service {
        try ResolutionFrames.checkCycle(self, from: parent)
        var frame = ResolutionFrame(registration: self, parent: parent)
        return try withUnsafeMutablePointer(to: &frame) { pointer throws(ResolutionError) -> Service in
            slot.pointee.frame = pointer
            defer { slot.pointee.frame = parent }
            do {
                return try factory(Resolver(container: container), arguments)
            } catch let error as ResolutionError {
                // Already carries its own path: pass it up unchanged, never wrapped twice.
                throw error
            } catch {
                throw factoryFailure(error, at: pointer)
            }
        }
    }

    @usableFromInline
    func factoryFailure(_ error: any Error, at frame: UnsafeMutablePointer<ResolutionFrame>)
        -> ResolutionError
    {
        ResolutionError(
            reason: .factoryFailed(error), requested: description, path: ResolutionFrames.path(from: frame))
    }
}

/// A weak reference to an object made by a factory.
@usableFromInline
struct WeakObject {
    @usableFromInline weak var object: AnyObject?

    @usableFromInline
    init() {}

    @usableFromInline
    init(_ object: AnyObject) { self.object = object }
}
