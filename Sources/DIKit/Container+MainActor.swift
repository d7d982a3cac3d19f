import Foundation

extension Container {
    /// Registers a factory that runs on the main actor: for `@MainActor` view models and coordinators.
    ///
    /// ```swift
    /// container.registerOnMainActor(SearchViewModel.self) { @MainActor resolver in
    ///     SearchViewModel(movies: try resolver.resolve())
    /// }
    /// ```
    /// Resolve it with the ordinary `resolve` from the main actor, or with ``resolveAsync(_:name:)`` from
    /// anywhere. A synchronous resolve off the main actor does not call the factory; it throws
    /// ``ResolutionError`` with reason ``ResolutionError/Reason/requiresMainActor``.
    /// - Parameters:
    ///   - type: The type to resolve; inferred from the factory when omitted.
    ///   - name: The registration's name; `nil` by default.
    ///   - scope: How instances are shared; ``Scope/transient`` by default.
    ///   - factory: Makes an instance on the main actor.
    /// - Returns: The registration, to forward other types to it with ``Registered/implements(_:)``.
    @discardableResult
    public func registerOnMainActor<Service: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        scope: Scope = .transient,
        factory: @escaping @MainActor @Sendable (Resolver) throws -> Service
    ) -> Registered<Service> {
        storeOnMainActor(name: name, scope: scope) { (resolver, _: Void) in try factory(resolver) }
        return Registered(container: self, name: name, kind: .mainActor)
    }

    /// Registers a main-actor factory that takes one runtime argument, given at each resolve.
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - name: The registration's name; `nil` by default.
    ///   - scope: ``Scope/transient`` by default.
    ///   - factory: Makes an instance on the main actor from a resolver and the argument.
    public func registerOnMainActor<Service: Sendable, Argument: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        scope: Scope = .transient,
        factory: @escaping @MainActor @Sendable (Resolver, Argument) throws -> Service
    ) {
        storeOnMainActor(name: name, scope: scope, factory: factory)
    }

    /// Files a main-actor factory as an ordinary registration whose factory first checks that it runs on
    /// the main actor.
    private func storeOnMainActor<Service: Sendable, Arguments: Sendable>(
        name: String?, scope: Scope,
        factory: @escaping @MainActor @Sendable (Resolver, Arguments) throws -> Service
    ) {
        let description = RegistrationDescription(Service.self, Arguments.self, name: name, kind: .mainActor)
        store(
            Registration<Service, Arguments>(name: name, scope: scope, ownerLock: lock, kind: .mainActor) {
                resolver, arguments in
                // `isOnMainActor` holds only where the main actor's executor runs (the main thread, or
                // the main queue, which serves the main actor where a runtime drains it off the main
                // thread), so `assumeIsolated` below cannot trap; anywhere else the factory is not called.
                guard MainActorCheck.isOnMainActor else {
                    throw ResolutionError(
                        reason: .requiresMainActor, requested: description,
                        path: ResolutionFrames.path(from: ResolutionFrames.current))
                }
                return try MainActor.assumeIsolated { try factory(resolver, arguments) }
            })
    }
}

/// Whether the caller runs where the main actor does, without trapping when it does not.
enum MainActorCheck {
    /// Marks the main queue, so code running on it can tell (`DispatchQueue.getSpecific`).
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// On the main thread, or in a block or job the main queue runs.
    static var isOnMainActor: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: key) == true
    }
}
