/// What a factory receives to resolve its own dependencies.
///
/// It carries the resolution in progress, so the container can name the path in errors, detect cycles
/// and share ``Scope/graph`` instances. Use it only inside the factory that received it.
/// ```swift
/// container.register(BoxOfficeRepository.self) { resolver in
///     KobisBoxOfficeRepository(provider: try resolver.resolve())
/// }
/// ```
public struct Resolver: Resolving, Sendable {
    @usableFromInline let container: Container

    @usableFromInline
    init(container: Container) {
        self.container = container
    }

    /// Resolves a dependency within the resolution in progress. See ``Resolving``.
    /// - Parameters:
    ///   - type: The registered type.
    ///   - name: The registration's name, or `nil`.
    ///   - arguments: The factory's runtime arguments (`()` for none).
    /// - Returns: An instance according to the registration's ``Scope``.
    /// - Throws: ``ResolutionError``, with the whole path from the top-level request.
    @inlinable
    public func resolve<Service: Sendable, Arguments>(
        _ type: Service.Type,
        name: String?,
        arguments: Arguments
    ) throws(ResolutionError) -> Service {
        try container.resolve(type, name: name, arguments: arguments)
    }
}
