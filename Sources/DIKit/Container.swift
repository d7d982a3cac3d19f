/// A register/resolve container: factories registered under a type (usually a protocol), resolved with
/// their dependencies, and kept according to a ``Scope``.
///
/// ```swift
/// let container = Container()
/// container.register(NetworkSessionType.self, scope: .singleton) { _ in URLSession.shared }
/// container.register(BoxOfficeRepository.self) { resolver in
///     KobisBoxOfficeRepository(session: try resolver.resolve())
/// }
/// let repository: BoxOfficeRepository = try container.resolve()
/// ```
///
/// Register and resolve from any thread. Factories run outside the container's lock, so they may
/// resolve their own dependencies (through the ``Resolver`` they receive, or directly). Registering the
/// same type, name and argument types again replaces the earlier registration and drops its instance.
///
/// Services must be `Sendable`: a container hands the same singleton to every thread.
public final class Container: Resolving, Sendable {
    /// The process-wide container the property wrappers use unless given another (through
    /// ``current``). Configure it once at launch, in your composition root.
    public static let shared = Container()

    /// The container property wrappers resolve from: ``shared`` unless a task has bound another, for
    /// example a test with ``withOverrides(_:isolation:operation:)``.
    @TaskLocal public static var current: Container = .shared

    /// The container this one falls back to for registrations it does not have itself.
    public let parent: Container?
    /// Guards `registrations` and the shared instances of the registrations this container owns: resolves
    /// read under it side by side, registering and keeping or releasing instances write alone.
    @usableFromInline let lock = ReadWriteLock()
    // nonisolated(unsafe) and @exclusivity(unchecked): only read while holding `lock` for reading, and
    // only written while holding it alone, which already rules out a write overlapping any access; the
    // dynamic exclusivity check cost every resolve two runtime calls and a thread-local lookup.
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var registrations:
        [RegistrationKey: RegistrationBase] = [:]

    /// Creates an empty container.
    /// - Parameter parent: A container whose registrations this one inherits and may override;
    ///   `nil` (the default) for a root container.
    public init(parent: Container? = nil) {
        self.parent = parent
    }

    /// A new child container: it sees every registration of this one, and what it registers itself
    /// overrides them for resolves made through the child only.
    public func makeChild() -> Container {
        Container(parent: self)
    }

    // MARK: - Registering

    /// Registers a factory for `type`.
    /// - Parameters:
    ///   - type: The type to resolve, usually a protocol; inferred from the factory when omitted.
    ///   - name: Distinguishes several registrations of one type; `nil` by default.
    ///   - scope: How instances are shared; ``Scope/transient`` by default.
    ///   - factory: Makes an instance; resolves its own dependencies from the ``Resolver``.
    /// - Returns: The registration, to forward other types to it with
    ///   ``Registered/implements(_:)``.
    @discardableResult
    public func register<Service: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        scope: Scope = .transient,
        factory: @escaping @Sendable (Resolver) throws -> Service
    ) -> Registered<Service> {
        store(
            Registration<Service, Void>(name: name, scope: scope, ownerLock: lock) { resolver, _ in
                try factory(resolver)
            })
        return Registered(container: self, name: name)
    }

    /// Registers a factory that takes one runtime argument, given at each resolve.
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - name: The registration's name; `nil` by default.
    ///   - scope: ``Scope/transient`` by default. With another scope, the first argument wins.
    ///   - factory: Makes an instance from a resolver and the argument.
    public func register<Service: Sendable, Argument>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        scope: Scope = .transient,
        factory: @escaping @Sendable (Resolver, Argument) throws -> Service
    ) {
        store(Registration<Service, Argument>(name: name, scope: scope, ownerLock: lock, factory: factory))
    }

    /// Registers a factory that takes two runtime arguments.
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - name: The registration's name; `nil` by default.
    ///   - scope: ``Scope/transient`` by default.
    ///   - factory: Makes an instance from a resolver and the two arguments.
    public func register<Service: Sendable, First, Second>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        scope: Scope = .transient,
        factory: @escaping @Sendable (Resolver, First, Second) throws -> Service
    ) {
        store(
            Registration<Service, (First, Second)>(name: name, scope: scope, ownerLock: lock) {
                resolver, arguments in
                try factory(resolver, arguments.0, arguments.1)
            })
    }

    /// Registers a factory that takes three runtime arguments.
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - name: The registration's name; `nil` by default.
    ///   - scope: ``Scope/transient`` by default.
    ///   - factory: Makes an instance from a resolver and the three arguments.
    public func register<Service: Sendable, First, Second, Third>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        scope: Scope = .transient,
        factory: @escaping @Sendable (Resolver, First, Second, Third) throws -> Service
    ) {
        store(
            Registration<Service, (First, Second, Third)>(name: name, scope: scope, ownerLock: lock) {
                resolver, arguments in
                try factory(resolver, arguments.0, arguments.1, arguments.2)
            })
    }

    /// Registers a ready-made instance, shared like a singleton.
    /// - Parameters:
    ///   - type: The type to resolve; inferred from `instance` when omitted.
    ///   - name: The registration's name; `nil` by default.
    ///   - instance: Returned by every resolve.
    /// - Returns: The registration, to forward other types to it with ``Registered/implements(_:)``.
    @discardableResult
    public func register<Service: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        instance: Service
    ) -> Registered<Service> {
        store(Registration<Service, Void>(name: name, instance: instance, ownerLock: lock))
        return Registered(container: self, name: name)
    }

    /// Installs the registrations of each module, in order (a later one replaces an earlier one's
    /// registration of the same type and name).
    /// - Parameter modules: The modules to install.
    public func install(_ modules: any Module...) {
        for module in modules { module.register(in: self) }
    }

    /// Whether a registration for `type`, `name` and no arguments exists here or in a parent, of either
    /// kind: synchronous (`register`, main-actor ones included) or async (`registerAsync`). The nearest
    /// container with either kind decides, as for resolving: ``resolveAsync(_:name:)`` resolves what this
    /// finds, and the synchronous `resolve` only a synchronous registration.
    /// - Parameters:
    ///   - type: The registered type.
    ///   - name: The registration's name; `nil` by default.
    public func isRegistered<Service>(_ type: Service.Type, name: String? = nil) -> Bool {
        let key = RegistrationKey(type, Void.self, name: name)
        return lookup(key, orElse: RegistrationKey(type, AsyncFactoryMarker.self, name: name)) != nil
    }

    /// Removes every registration of this container (not of its parent) and the instances they hold.
    public func reset() {
        let removed = lock.withLock { () -> [RegistrationKey: RegistrationBase] in
            defer { registrations = [:] }
            return registrations
        }
        // Released after unlocking: a singleton's deinit may resolve from this container.
        withExtendedLifetime(removed) {}
    }

    /// Keeps every registration but drops the singleton and weak instances made so far, so the next
    /// resolve makes new ones. Ready-made instances registered with `instance:` are kept: they are part
    /// of their registration.
    public func releaseInstances() {
        for registration in lock.withReadLock({ Array(registrations.values) }) {
            registration.releaseInstances()
        }
    }

    /// Releases the instances of every registration of this container in the custom scope `scope`
    /// (not its parent's, not its children's), after giving the lock back. The registrations stay: the
    /// next resolve makes a new instance.
    /// - Parameter scope: The custom scope to end, for example `.session` on logout.
    public func reset(scope: CustomScope) {
        let inScope = lock.withReadLock { registrations.values.filter { $0.scope == .custom(scope) } }
        for registration in inScope { registration.releaseInstances() }
    }

    func store(_ registration: RegistrationBase) {
        let replaced = lock.withLock { () -> [RegistrationBase?] in
            var replaced = [registrations.updateValue(registration, forKey: registration.key)]
            // A synchronous and an async registration of one type and name replace each other too.
            if let other = registration.key.otherKind {
                replaced.append(registrations.removeValue(forKey: other))
            }
            return replaced
        }
        // Released after unlocking: the replaced registration's singleton may resolve in its deinit.
        withExtendedLifetime(replaced) {}
    }
}
