/// Something services can be resolved from: a ``Container``, or the ``Resolver`` a factory receives.
public protocol Resolving {
    /// Resolves the service registered for `type`, `name` and the type of `arguments`.
    ///
    /// This is the one primitive the other `resolve` methods call: `arguments` is `()` for a factory
    /// without arguments, the argument itself for one, and a tuple for two or three.
    /// - Parameters:
    ///   - type: The registered type, usually a protocol.
    ///   - name: The registration's name; `nil` for the unnamed one.
    ///   - arguments: The runtime arguments for the factory.
    /// - Returns: An instance, created or shared according to the registration's ``Scope``.
    /// - Throws: ``ResolutionError`` when nothing is registered, a cycle is found or a factory fails.
    func resolve<Service: Sendable, Arguments>(
        _ type: Service.Type,
        name: String?,
        arguments: Arguments
    ) throws(ResolutionError) -> Service
}

extension Resolving {
    /// Resolves the service registered for `type` (and `name`), with no runtime arguments.
    ///
    /// ```swift
    /// let repository = try container.resolve(BoxOfficeRepository.self)
    /// let viewModel: DailyBoxOfficeViewModel = try container.resolve()
    /// ```
    /// - Parameters:
    ///   - type: The registered type; inferred from the context when omitted.
    ///   - name: The registration's name; `nil` (the default) for the unnamed one.
    /// - Returns: An instance according to the registration's ``Scope``.
    /// - Throws: ``ResolutionError`` naming the type, the resolution path and close registrations.
    @inlinable
    public func resolve<Service: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil
    ) throws(ResolutionError) -> Service {
        try resolve(type, name: name, arguments: ())
    }

    /// Resolves a service whose factory takes one runtime argument.
    /// - Parameters:
    ///   - type: The registered type; inferred when omitted.
    ///   - name: The registration's name; `nil` by default.
    ///   - argument: Passed to the factory. Its static type selects the registration.
    /// - Returns: An instance according to the registration's ``Scope``.
    /// - Throws: ``ResolutionError`` when no factory takes this argument type.
    @inlinable
    public func resolve<Service: Sendable, Argument>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        argument: Argument
    ) throws(ResolutionError) -> Service {
        try resolve(type, name: name, arguments: argument)
    }

    /// Resolves a service whose factory takes two runtime arguments.
    /// - Parameters:
    ///   - type: The registered type; inferred when omitted.
    ///   - name: The registration's name; `nil` by default.
    ///   - first: The factory's first argument.
    ///   - second: The factory's second argument.
    /// - Returns: An instance according to the registration's ``Scope``.
    /// - Throws: ``ResolutionError`` when no factory takes these argument types.
    @inlinable
    public func resolve<Service: Sendable, First, Second>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        arguments first: First,
        _ second: Second
    ) throws(ResolutionError) -> Service {
        try resolve(type, name: name, arguments: (first, second))
    }

    /// Resolves a service whose factory takes three runtime arguments.
    /// - Parameters:
    ///   - type: The registered type; inferred when omitted.
    ///   - name: The registration's name; `nil` by default.
    ///   - first: The factory's first argument.
    ///   - second: The factory's second argument.
    ///   - third: The factory's third argument.
    /// - Returns: An instance according to the registration's ``Scope``.
    /// - Throws: ``ResolutionError`` when no factory takes these argument types.
    @inlinable
    public func resolve<Service: Sendable, First, Second, Third>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        arguments first: First,
        _ second: Second,
        _ third: Third
    ) throws(ResolutionError) -> Service {
        try resolve(type, name: name, arguments: (first, second, third))
    }
}
