import Foundation

/// A registration with its types erased, as the container stores it.
@usableFromInline
class RegistrationBase: @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable; the mutable instance storage of the
    // subclass is guarded by `ownerLock`, the lock of the one container that holds the registration.
    @usableFromInline let key: RegistrationKey
    @usableFromInline let scope: Scope
    @usableFromInline let ownerLock: Lock
    let description: RegistrationDescription

    @usableFromInline
    init(key: RegistrationKey, scope: Scope, ownerLock: Lock, description: RegistrationDescription) {
        self.key = key
        self.scope = scope
        self.ownerLock = ownerLock
        self.description = description
    }

    var takesArguments: Bool { false }

    /// A copy with the same factory and no cached instances, owned by the container of `lock`.
    func freshCopy(ownerLock lock: Lock) -> RegistrationBase { self }

    /// Drops cached singleton and weak instances.
    func releaseInstances() {}

    /// Resolves with no arguments, for ``Container/verify()``.
    func verify(requester: Container, owner: Container) throws(ResolutionError) {}
}

/// One factory, and the instances its scope keeps.
@usableFromInline
final class Registration<Service: Sendable, Arguments>: RegistrationBase, @unchecked Sendable {
    // @unchecked Sendable: see `RegistrationBase`; `shared` and `weakShared` are only touched while
    // holding `ownerLock`, and `factory` is an immutable @Sendable closure.
    @usableFromInline typealias Factory = @Sendable (Resolver, Arguments) throws -> Service

    @usableFromInline let factory: Factory
    /// The instance given to `register(_:name:instance:)`, which every copy keeps.
    let fixedInstance: Service?
    /// The singleton once made, or a registered instance. Guarded by `ownerLock`.
    @usableFromInline var shared: Service?
    /// The weak-scoped object once made. Guarded by `ownerLock`.
    @usableFromInline var weakShared = WeakObject()
    /// Serialises the first creation of a shared instance, so it happens exactly once.
    let creationGate = CreationGate()

    @usableFromInline
    init(
        name: String?, scope: Scope, ownerLock: Lock, fixedInstance: Service? = nil,
        factory: @escaping Factory
    ) {
        self.factory = factory
        self.fixedInstance = fixedInstance
        self.shared = fixedInstance
        super.init(
            key: RegistrationKey(Service.self, Arguments.self, name: name), scope: scope,
            ownerLock: ownerLock,
            description: RegistrationDescription(Service.self, Arguments.self, name: name))
    }

    @usableFromInline
    convenience init(name: String?, instance: Service, ownerLock: Lock) {
        self.init(name: name, scope: .singleton, ownerLock: ownerLock, fixedInstance: instance) { _, _ in
            instance
        }
    }

    override var takesArguments: Bool { Arguments.self != Void.self }

    override func freshCopy(ownerLock lock: Lock) -> RegistrationBase {
        Registration(
            name: key.name, scope: scope, ownerLock: lock, fixedInstance: fixedInstance, factory: factory)
    }

    override func releaseInstances() {
        let released = ownerLock.withLock { () -> Service? in
            defer {
                shared = fixedInstance
                weakShared = WeakObject()
            }
            return shared
        }
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
    ///   - owner: The container holding this registration; shared (singleton, weak) instances resolve their
    ///     dependencies there, so a child's overrides never leak into its parent's shared instances.
    @usableFromInline
    func instance(arguments: Arguments, requester: Container, owner: Container) throws(ResolutionError)
        -> Service
    {
        let parent = ResolutionFrames.current
        switch scope {
        case .transient:
            return try make(arguments, resolvingFrom: requester, parent: parent)
        case .graph:
            guard let parent else { return try make(arguments, resolvingFrom: requester, parent: nil) }
            let graph = ResolutionFrames.graph(from: parent)
            if let existing = graph.instances[ObjectIdentifier(self)] as? Service { return existing }
            let made = try make(arguments, resolvingFrom: requester, parent: parent)
            graph.instances[ObjectIdentifier(self)] = made
            return made
        case .singleton, .weak:
            if let existing = sharedInstance() { return existing }
            // A cycle back to this registration must be reported before waiting at the gate, which this
            // thread would otherwise already hold.
            try ResolutionFrames.checkCycle(self, from: parent)
            try enterCreationGate(parent: parent)
            defer { creationGate.leave() }
            if let existing = sharedInstance() { return existing }
            let made = try make(arguments, resolvingFrom: owner, parent: parent)
            try keep(made, parent: parent)
            return made
        }
    }

    /// Waits until no other thread is creating this registration's instance, or throws when that wait
    /// would never end.
    func enterCreationGate(parent: UnsafeMutablePointer<ResolutionFrame>?) throws(ResolutionError) {
        let path = { ResolutionFrames.path(from: parent, appending: self.description.service) }
        switch creationGate.enter(path: path) {
        case .entered:
            return
        case .reentered:
            throw ResolutionFrames.cycleError(self, from: parent)
        case .wouldWaitForever(let ownerPath):
            throw ResolutionError(
                reason: .crossThreadCycle(otherThreadPath: ownerPath), service: description.service,
                name: description.name, arguments: description.arguments, path: path(), closeMatches: [])
        }
    }

    @usableFromInline
    func sharedInstance() -> Service? {
        ownerLock.withLock {
            if let shared { return shared }
            return weakShared.object as? Service
        }
    }

    private func keep(_ made: Service, parent: UnsafeMutablePointer<ResolutionFrame>?) throws(ResolutionError)
    {
        if scope == .singleton {
            let replaced = ownerLock.withLock { () -> Service? in
                defer { shared = made }
                return shared
            }
            withExtendedLifetime(replaced) {}
            return
        }
        guard type(of: made as Any) is AnyClass else {
            throw ResolutionError(
                reason: .weakScopeNeedsAClass(instanceType: String(describing: type(of: made as Any))),
                service: description.service, name: description.name, arguments: description.arguments,
                path: ResolutionFrames.path(from: parent, appending: description.service), closeMatches: [])
        }
        let object = made as AnyObject
        ownerLock.withLock { weakShared = WeakObject(object) }
    }

    /// Runs the factory in a new frame on this thread's resolution path.
    @inlinable
    func make(
        _ arguments: Arguments, resolvingFrom container: Container,
        parent: UnsafeMutablePointer<ResolutionFrame>?
    ) throws(ResolutionError) -> Service {
        try ResolutionFrames.checkCycle(self, from: parent)
        var frame = ResolutionFrame(registration: self, parent: parent)
        return try withUnsafeMutablePointer(to: &frame) { pointer throws(ResolutionError) -> Service in
            ResolutionFrames.current = pointer
            defer { ResolutionFrames.current = parent }
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
            reason: .factoryFailed(error), service: description.service, name: description.name,
            arguments: description.arguments, path: ResolutionFrames.path(from: frame), closeMatches: [])
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
