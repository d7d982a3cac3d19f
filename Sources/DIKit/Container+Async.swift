import Foundation

extension Container {
    /// Registers a factory whose creation awaits: opening a database, reading a token from the
    /// keychain. Resolve it with ``resolveAsync(_:name:)``.
    ///
    /// An async singleton is made exactly once however many tasks resolve it at the same moment; a
    /// factory that throws is not cached (the tasks waiting at that moment receive its error, the next
    /// resolve tries again).
    /// - Parameters:
    ///   - type: The type to resolve; inferred from the factory when omitted.
    ///   - name: The registration's name; `nil` by default.
    ///   - scope: How instances are shared; ``Scope/transient`` by default.
    ///   - factory: Makes an instance; resolves its own dependencies from the ``AsyncResolver``.
    public func registerAsync<Service: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        scope: Scope = .transient,
        factory: @escaping @Sendable (AsyncResolver) async throws -> Service
    ) {
        store(AsyncRegistration(name: name, scope: scope, ownerLock: lock, recorder: nil, factory: factory))
    }

    /// Resolves a service, awaiting its factory if it was registered with ``registerAsync(_:name:scope:factory:)``.
    ///
    /// It resolves synchronous registrations too, and goes to the main actor for main-actor ones (and
    /// types forwarded to them); a synchronous factory that itself needs a main-actor one still needs the
    /// main actor. It is named apart from `resolve` because an async overload of `resolve` would
    /// make every existing `try container.resolve()` in async code need an `await`.
    /// - Parameters:
    ///   - type: The registered type; inferred when omitted.
    ///   - name: The registration's name; `nil` by default.
    /// - Returns: An instance according to the registration's ``Scope``.
    /// - Throws: ``ResolutionError`` naming the type, the resolution path and close registrations.
    public func resolveAsync<Service: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil
    ) async throws(ResolutionError) -> Service {
        let asyncKey = RegistrationKey(Service.self, AsyncFactoryMarker.self, name: name)
        let key = RegistrationKey(Service.self, Void.self, name: name)
        guard let (base, owner) = lookup(asyncKey, orElse: key) else {
            return try resolveSynchronously(Service.self, name: name)
        }
        if base.key == asyncKey {
            // Safe: a key encodes the exact `Service` type, and only `registerAsync` files an
            // `AsyncRegistration<Service>` under a key with the async marker.
            return try await unsafeDowncast(base, to: AsyncRegistration<Service>.self)
                .instance(requester: self, owner: owner)
        }
        guard base.description.kind == .mainActor, !MainActorCheck.isOnMainActor else {
            return try resolveSynchronously(Service.self, name: name)
        }
        return try await Self.onMainActor { () throws(ResolutionError) in
            try self.resolveSynchronously(Service.self, name: name)
        }
    }

    /// Runs `body` on the main actor, keeping its typed error (`MainActor.run` erases it).
    static func onMainActor<Result: Sendable>(
        _ body: @escaping @MainActor @Sendable () throws(ResolutionError) -> Result
    ) async throws(ResolutionError) -> Result {
        let outcome = await MainActor.run { () -> Swift.Result<Result, ResolutionError> in
            do throws(ResolutionError) {
                return .success(try body())
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Resolves a synchronous registration from async code: inside an async factory, under a frame
    /// standing for it, so the path, cycles and the graph scope carry on from the async resolution.
    func resolveSynchronously<Service: Sendable>(_ type: Service.Type, name: String?) throws(ResolutionError)
        -> Service
    {
        guard let node = AsyncResolution.active else { return try resolve(type, name: name) }
        var frame = ResolutionFrame(standingFor: node)
        let previous = ResolutionFrames.current
        return try withUnsafeMutablePointer(to: &frame) { pointer throws(ResolutionError) -> Service in
            ResolutionFrames.current = pointer
            defer { ResolutionFrames.current = previous }
            return try resolve(type, name: name)
        }
    }

    /// How many tasks wait for the async creation of `type` in progress: a hook for tests.
    func waitingTaskCount<Service: Sendable>(for type: Service.Type, name: String? = nil) -> Int {
        let key = RegistrationKey(Service.self, AsyncFactoryMarker.self, name: name)
        guard let (base, _) = lookup(key) else { return 0 }
        return unsafeDowncast(base, to: AsyncRegistration<Service>.self).waitingTaskCount
    }

    /// The nearest registration for `first` or `second`, here or in a parent, with its owner: a child's
    /// synchronous override hides its parent's async registration and the other way round.
    func lookup(_ first: RegistrationKey, orElse second: RegistrationKey) -> (RegistrationBase, Container)? {
        var container: Container? = self
        while let current = container {
            let found = current.lock.withReadLock {
                current.registrations[first] ?? current.registrations[second]
            }
            if let found { return (found, current) }
            container = current.parent
        }
        return nil
    }
}
