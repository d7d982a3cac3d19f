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
    /// Guards `registrations` and the shared instances of the registrations this container owns.
    @usableFromInline let lock = Lock()
    // nonisolated(unsafe) and @exclusivity(unchecked): only read or written while holding `lock`, which
    // already rules out overlapping accesses; the dynamic exclusivity check cost every resolve two
    // runtime calls and a thread-local lookup.
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
        for registration in lock.withLock({ Array(registrations.values) }) {
            registration.releaseInstances()
        }
    }

    /// Releases the instances of every registration of this container in the custom scope `scope`
    /// (not its parent's, not its children's), after giving the lock back. The registrations stay: the
    /// next resolve makes a new instance.
    /// - Parameter scope: The custom scope to end, for example `.session` on logout.
    public func reset(scope: CustomScope) {
        let inScope = lock.withLock { registrations.values.filter { $0.scope == .custom(scope) } }
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

    // MARK: - Resolving

    /// Resolves the service registered for `type`, `name` and the type of `arguments`. See
    /// ``Resolving`` for the friendlier overloads.
    /// - Parameters:
    ///   - type: The registered type.
    ///   - name: The registration's name, or `nil`.
    ///   - arguments: The factory's runtime arguments (`()` for none, a tuple for several).
    /// - Returns: An instance according to the registration's ``Scope``.
    /// - Throws: ``ResolutionError`` naming the type, the resolution path and close registrations.
    @inlinable
    public func resolve<Service: Sendable, Arguments>(
        _ type: Service.Type,
        name: String?,
        arguments: Arguments
    ) throws(ResolutionError) -> Service {
        let key = RegistrationKey(Service.self, Arguments.self, name: name)
        lock.lock()
        guard let base = registrations[key] else {
            lock.unlock()
            return try resolveInherited(key: key, arguments: arguments)
        }
        // Safe: a key encodes the exact `Service` and `Arguments` types, and `store` only ever files a
        // `Registration<Service, Arguments>` under the key built from those same types.
        let registration = unsafeDowncast(base, to: Registration<Service, Arguments>.self)
        if registration.makesDirectly {
            lock.unlock()
            // Inlined into the caller, so the factory call is specialised for `Service`.
            return try registration.make(arguments, resolvingFrom: self, parent: ResolutionFrames.current)
        }
        if let shared = registration.kept.strong {
            lock.unlock()
            return shared
        }
        lock.unlock()
        return try registration.instance(arguments: arguments, requester: self, owner: self)
    }

    /// The slow path: the registration is in a parent, or nowhere.
    @usableFromInline
    func resolveInherited<Service: Sendable, Arguments>(
        key: RegistrationKey, arguments: Arguments
    ) throws(ResolutionError) -> Service {
        // The nearest container with either kind of registration decides: a child's async override
        // hides its parent's synchronous registration from a synchronous resolve too.
        let found = key.otherKind.map { lookup(key, orElse: $0) } ?? parent?.lookup(key)
        guard let (base, owner) = found, base.key == key else {
            throw notRegistered(key: key, requested: Service.self, arguments: Arguments.self)
        }
        // Safe for the same reason as in `resolve`: the key fixes the registration's generic type.
        let registration = unsafeDowncast(base, to: Registration<Service, Arguments>.self)
        return try registration.instance(arguments: arguments, requester: self, owner: owner)
    }

    /// Resolves the service, or stops the program with the ``ResolutionError`` message.
    ///
    /// For app code whose registrations are fixed at launch, where a missing one is a programming error
    /// that no caller could recover from. Use `resolve` wherever a failure can be handled.
    /// - Parameters:
    ///   - type: The registered type; inferred when omitted.
    ///   - name: The registration's name; `nil` by default.
    /// - Returns: An instance according to the registration's ``Scope``.
    @inlinable
    public func require<Service: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil
    ) -> Service {
        do {
            return try resolve(type, name: name)
        } catch {
            // Deliberate: this is the documented stop-on-failure convenience; `resolve` is the
            // throwing alternative for callers who can handle the error.
            fatalError(error.description)
        }
    }

    /// The registration for `key` here or in the nearest parent that has one, with its owner.
    func lookup(_ key: RegistrationKey) -> (RegistrationBase, Container)? {
        var container: Container? = self
        while let current = container {
            if let registration = current.lock.withLock({ current.registrations[key] }) {
                return (registration, current)
            }
            container = current.parent
        }
        return nil
    }

    /// The error for a request nothing is registered for, with its path and close matches.
    @usableFromInline
    func notRegistered<Service, Arguments>(
        key: RegistrationKey, requested: Service.Type, arguments: Arguments.Type
    ) -> ResolutionError {
        let description = RegistrationDescription(Service.self, Arguments.self, name: key.name)
        var hints: [String] = []
        if let optional = requested as? any OptionalMarker.Type,
            lookup(RegistrationKey(unwrapping: optional, like: key)) != nil
        {
            hints.append(
                "\(String(describing: optional.wrappedType)) (the request was inferred as an Optional; "
                    + "name the type: resolve(\(String(describing: optional.wrappedType)).self))")
        }
        return ResolutionError(
            reason: { _ in .notRegistered }, requested: description,
            path: ResolutionFrames.path(from: ResolutionFrames.current, appending: description.service),
            closeMatches: closeMatches(for: key, shortName: description.service.short), hints: hints)
    }

    /// Registrations of the same service type under another name, other argument types or another kind
    /// (async), and of other types with the same short name (`Session` from another module).
    func closeMatches(for key: RegistrationKey, shortName: String) -> [RegistrationDescription] {
        var matches: [RegistrationDescription] = []
        var container: Container? = self
        while let current = container {
            matches += current.lock.withLock {
                current.registrations.values.filter { registration in
                    registration.key != key
                        && (registration.key.service == key.service
                            || registration.description.service.short == shortName)
                }
                .map(\.description)
            }
            container = current.parent
        }
        return matches
    }

    // MARK: - Verifying

    /// Resolves every registration without runtime arguments in a throwaway copy of this container
    /// (and its parents), reports every failure at once, and finds captive dependencies.
    ///
    /// Call it in a test, or at launch in debug builds. It runs the real factories, in the copy: the
    /// real container's singletons are not made, but a factory's side effects happen. Async
    /// registrations are left to ``verifyAsync()``.
    /// - Returns: The captive dependencies found, and the registrations skipped.
    /// - Throws: ``VerificationError`` listing every ``ResolutionError`` found, each with its path.
    @discardableResult
    public func verify() throws(VerificationError) -> VerificationReport {
        let plan = VerificationPlan(of: self, includingAsync: false)
        var failures: [ResolutionError] = []
        for (registration, owner) in plan.checked {
            do {
                try registration.verify(requester: plan.copy, owner: owner)
            } catch {
                failures.append(error)
            }
        }
        return try plan.recorder.report(failures: failures, skipped: plan.skipped)
    }

    /// ``verify()``, and the async registrations too, awaiting their factories; main-actor factories are
    /// verified on the main actor.
    /// - Returns: The captive dependencies found, and the registrations skipped.
    /// - Throws: ``VerificationError`` listing every ``ResolutionError`` found, each with its path.
    @discardableResult
    public func verifyAsync() async throws(VerificationError) -> VerificationReport {
        let plan = VerificationPlan(of: self, includingAsync: true)
        var failures: [ResolutionError] = []
        for (registration, owner) in plan.checked {
            do throws(ResolutionError) {
                if registration.description.kind == .mainActor, !MainActorCheck.isOnMainActor {
                    try await Self.onMainActor { () throws(ResolutionError) in
                        try registration.verify(requester: plan.copy, owner: owner)
                    }
                } else {
                    try await registration.verifyAsync(requester: plan.copy, owner: owner)
                }
            } catch {
                failures.append(error)
            }
        }
        return try plan.recorder.report(failures: failures, skipped: plan.skipped)
    }

    /// What a verification resolves: a throwaway copy recording captives, the registrations to check in
    /// it with their owners, and those it cannot check.
    private struct VerificationPlan {
        let recorder = VerificationRecorder()
        let copy: Container
        var checked: [(RegistrationBase, Container)] = []
        var skipped: [String] = []

        init(of container: Container, includingAsync: Bool) {
            copy = container.throwawayCopy(recorder: recorder)
            for (registration, owner) in copy.allRegistrations() {
                if registration.takesArguments || (!includingAsync && registration.description.kind == .async)
                {
                    skipped.append(registration.description.rendered)
                } else {
                    checked.append((registration, owner))
                }
            }
        }
    }

    private func throwawayCopy(recorder: VerificationRecorder) -> Container {
        let copy = Container(parent: parent?.throwawayCopy(recorder: recorder))
        let fresh = lock.withLock {
            registrations.mapValues { $0.freshCopy(ownerLock: copy.lock, recorder: recorder) }
        }
        copy.lock.withLock { copy.registrations = fresh }
        return copy
    }

    /// Every registration visible from here (a child's override hides the parent's), with its owner,
    /// in a stable order.
    private func allRegistrations() -> [(RegistrationBase, Container)] {
        var seen = Set<RegistrationKey>()
        var result: [(RegistrationBase, Container)] = []
        var container: Container? = self
        while let current = container {
            let own = current.lock.withLock { Array(current.registrations.values) }
            for registration in own where seen.insert(registration.key).inserted {
                result.append((registration, current))
            }
            container = current.parent
        }
        return result.sorted { $0.0.description.rendered < $1.0.description.rendered }
    }
}

extension Container {
    /// Runs `operation` with ``current`` bound to a child of the current container in which
    /// `overrides` registered their replacements.
    ///
    /// The binding is task-local: tests running in parallel each see their own overrides, and nothing
    /// leaks into ``shared``.
    /// ```swift
    /// try await Container.withOverrides {
    ///     $0.register(BoxOfficeRepository.self) { _ in StubRepository() }
    /// } operation: {
    ///     let screen = DailyBoxOfficeScreen()   // its @Inject properties see the stub
    /// }
    /// ```
    /// - Parameters:
    ///   - overrides: Registers the replacements in the child container.
    ///   - isolation: The caller's actor, inherited so `operation` runs where the caller does; leave it
    ///     out.
    ///   - operation: The work that should see them.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public static func withOverrides<Result>(
        _ overrides: (Container) -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let child = current.makeChild()
        overrides(child)
        return try await $current.withValue(child, operation: operation, isolation: isolation)
    }

    /// Runs `operation` with ``current`` bound to a child of `base`, the container your composition root
    /// builds, in which `overrides` registered their replacements: a test of an app that makes its own
    /// `Container()` overrides that graph, not ``shared``.
    ///
    /// ```swift
    /// try await Container.withOverrides(of: makeAppContainer()) {
    ///     $0.register(BoxOfficeRepository.self) { _ in StubRepository() }
    /// } operation: {
    ///     let repository: any BoxOfficeRepository = try Container.current.resolve()   // the stub
    /// }
    /// ```
    /// Code that resolves from ``current`` (the property wrappers, by default) sees the overrides; code
    /// that holds `base` and resolves from it directly does not. An override does not reach an instance
    /// `base` shares (a singleton, a custom-scope instance) either: that instance's dependencies are
    /// resolved in `base`. Override the shared service itself.
    /// - Parameters:
    ///   - base: The container whose registrations the overrides replace.
    ///   - overrides: Registers the replacements in the child container.
    ///   - isolation: The caller's actor, inherited so `operation` runs where the caller does; leave it
    ///     out.
    ///   - operation: The work that should see them.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public static func withOverrides<Result>(
        of base: Container,
        _ overrides: (Container) -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let child = base.makeChild()
        overrides(child)
        return try await $current.withValue(child, operation: operation, isolation: isolation)
    }

    /// The synchronous form of ``withOverrides(of:_:isolation:operation:)``.
    /// - Parameters:
    ///   - base: The container whose registrations the overrides replace.
    ///   - overrides: Registers the replacements in the child container.
    ///   - operation: The work that should see them.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public static func withOverrides<Result>(
        of base: Container,
        _ overrides: (Container) -> Void,
        operation: () throws -> Result
    ) rethrows -> Result {
        let child = base.makeChild()
        overrides(child)
        return try $current.withValue(child, operation: operation)
    }

    /// The synchronous form of ``withOverrides(_:isolation:operation:)``.
    /// - Parameters:
    ///   - overrides: Registers the replacements in the child container.
    ///   - operation: The work that should see them.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public static func withOverrides<Result>(
        _ overrides: (Container) -> Void,
        operation: () throws -> Result
    ) rethrows -> Result {
        let child = current.makeChild()
        overrides(child)
        return try $current.withValue(child, operation: operation)
    }
}

/// Lets the container see through an `Optional` it was asked for.
protocol OptionalMarker {
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalMarker {
    static var wrappedType: Any.Type { Wrapped.self }
}

extension RegistrationKey {
    /// The key `key` would have if its service type were `optional`'s wrapped type.
    init(unwrapping optional: any OptionalMarker.Type, like key: RegistrationKey) {
        self.init(service: ObjectIdentifier(optional.wrappedType), arguments: key.arguments, name: key.name)
    }
}
