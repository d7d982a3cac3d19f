/// A registration with its type erased, as the container stores it.
protocol AnyRegistration: Sendable {
    var description: RegistrationDescription { get }
    var key: RegistrationKey { get }
    var takesArguments: Bool { get }
    /// A copy with the same factory and no cached instances, for ``Container/verify()``.
    func freshCopy() -> any AnyRegistration
    /// Drops cached singleton and weak instances.
    func releaseInstances()
    /// Resolves with no arguments in `context`, for ``Container/verify()``.
    func verify(requester: Container, owner: Container, context: ResolutionContext) throws(ResolutionError)
}

/// One factory and the instances its scope keeps.
final class Registration<Service: Sendable, Arguments>: AnyRegistration {
    typealias Factory = @Sendable (Resolver, Arguments) throws -> Service

    let key: RegistrationKey
    let description: RegistrationDescription
    let scope: Scope
    private let factory: Factory
    /// The singleton, or the weak-scoped object, once made.
    private let cache = Locked<Cached>(.none)
    /// Serialises the first creation of a singleton or weak instance, so it happens exactly once.
    private let creationGate = Lock()

    enum Cached: @unchecked Sendable {
        // @unchecked Sendable: `strong` holds a `Service`, which is Sendable; `weak` holds an object the
        // factory made as a `Service` (Sendable) and is only ever cast back to `Service`.
        case none
        case strong(Service)
        case weak(WeakObject)
    }

    init(name: String?, scope: Scope, factory: @escaping Factory) {
        self.key = RegistrationKey(Service.self, Arguments.self, name: name)
        self.description = RegistrationDescription(Service.self, Arguments.self, name: name)
        self.scope = scope
        self.factory = factory
    }

    init(name: String?, instance: Service) {
        self.key = RegistrationKey(Service.self, Arguments.self, name: name)
        self.description = RegistrationDescription(Service.self, Arguments.self, name: name)
        self.scope = .singleton
        self.factory = { _, _ in instance }
        cache.withLock { $0 = .strong(instance) }
    }

    private init(copying other: Registration) {
        key = other.key
        description = other.description
        scope = other.scope
        factory = other.factory
    }

    var takesArguments: Bool { Arguments.self != Void.self }

    func freshCopy() -> any AnyRegistration {
        let copy = Registration(copying: self)
        if case .strong(let instance) = cache.withLock({ $0 }), scope == .singleton {
            copy.cache.withLock { $0 = .strong(instance) }
        }
        return copy
    }

    func releaseInstances() {
        cache.withLock { $0 = .none }
    }

    /// The already-made singleton, without building a context: the fast path of a resolve.
    var cachedSingleton: Service? {
        guard scope == .singleton, case .strong(let instance) = cache.withLock({ $0 }) else { return nil }
        return instance
    }

    // MARK: - Resolving

    /// An instance for `arguments`, made or shared according to the scope.
    /// - Parameters:
    ///   - requester: The container asked; transient and graph factories resolve their dependencies there.
    ///   - owner: The container holding this registration; shared (singleton, weak) instances resolve their
    ///     dependencies there, so a child's overrides never leak into its parent's shared instances.
    func instance(
        arguments: Arguments, requester: Container, owner: Container, context: ResolutionContext
    ) throws(ResolutionError) -> Service {
        switch scope {
        case .transient:
            return try make(arguments, resolvingFrom: requester, in: context)
        case .graph:
            let identity = ObjectIdentifier(self)
            if let shared = context.graphInstances[identity] as? Service { return shared }
            let made = try make(arguments, resolvingFrom: requester, in: context)
            context.graphInstances[identity] = made
            return made
        case .singleton, .weak:
            if let shared = sharedInstance() { return shared }
            // A cycle back to this registration must be reported before waiting at the gate, which this
            // thread would otherwise already hold.
            try context.enter(ObjectIdentifier(self), description)
            context.leave()
            creationGate.lock()
            defer { creationGate.unlock() }
            if let shared = sharedInstance() { return shared }
            let made = try make(arguments, resolvingFrom: owner, in: context)
            try keep(made, context: context)
            return made
        }
    }

    func verify(requester: Container, owner: Container, context: ResolutionContext) throws(ResolutionError) {
        guard let noArguments = () as? Arguments else { return }
        _ = try instance(arguments: noArguments, requester: requester, owner: owner, context: context)
    }

    private func sharedInstance() -> Service? {
        switch cache.withLock({ $0 }) {
        case .none: return nil
        case .strong(let instance): return instance
        case .weak(let reference): return reference.object as? Service
        }
    }

    private func keep(_ made: Service, context: ResolutionContext) throws(ResolutionError) {
        if scope == .singleton {
            cache.withLock { $0 = .strong(made) }
            return
        }
        guard type(of: made as Any) is AnyClass else {
            throw ResolutionError(
                reason: .weakScopeNeedsAClass(instanceType: String(describing: type(of: made as Any))),
                service: description.service, name: description.name, arguments: description.arguments,
                path: context.renderedPath(appending: description), closeMatches: [])
        }
        let object = made as AnyObject
        cache.withLock { $0 = .weak(WeakObject(object)) }
    }

    private func make(
        _ arguments: Arguments, resolvingFrom container: Container, in context: ResolutionContext
    ) throws(ResolutionError) -> Service {
        try context.enter(ObjectIdentifier(self), description)
        defer { context.leave() }
        do {
            return try factory(Resolver(container: container, context: context), arguments)
        } catch let error as ResolutionError {
            // Already carries its own path: pass it up unchanged, never wrapped twice.
            throw error
        } catch {
            throw ResolutionError(
                reason: .factoryFailed(error), service: description.service, name: description.name,
                arguments: description.arguments, path: context.path.map(\.service), closeMatches: [])
        }
    }
}

/// A weak reference to an object made by a factory.
struct WeakObject {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
