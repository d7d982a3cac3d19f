extension Container {
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
        let slot = ResolutionFrames.slot(lock.threadKey)
        let stripe = lock.lockForReading(stripe: slot.pointee.stripe)
        guard let base = registrations[key] else {
            lock.unlock(reading: stripe)
            return try resolveInherited(key: key, arguments: arguments)
        }
        // Safe: a key encodes the exact `Service` and `Arguments` types, and `store` only ever files a
        // `Registration<Service, Arguments>` under the key built from those same types.
        let registration = unsafeDowncast(base, to: Registration<Service, Arguments>.self)
        if registration.makesDirectly {
            lock.unlock(reading: stripe)
            // Inlined into the caller, so the factory call is specialised for `Service`.
            return try registration.make(
                arguments, resolvingFrom: self, slot: slot, parent: slot.pointee.frame)
        }
        if let shared = registration.kept.strong {
            lock.unlock(reading: stripe)
            return shared
        }
        lock.unlock(reading: stripe)
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
            if let registration = current.lock.withReadLock({ current.registrations[key] }) {
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
            matches += current.lock.withReadLock {
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
