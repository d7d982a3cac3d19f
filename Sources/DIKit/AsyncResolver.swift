/// What an async factory receives to resolve its own dependencies, awaiting async ones.
///
/// ```swift
/// container.registerAsync(Database.self, scope: .singleton) { resolver in
///     try await Database.open(at: try await resolver.resolve(StorageLocation.self).url)
/// }
/// ```
/// It resolves async, synchronous and main-actor registrations alike (see
/// ``Container/resolveAsync(_:name:)``). Use it only inside the factory that received it, or in child
/// tasks that factory starts.
public struct AsyncResolver: Sendable {
    let container: Container

    /// Resolves a dependency within the async resolution in progress.
    /// - Parameters:
    ///   - type: The registered type; inferred when omitted.
    ///   - name: The registration's name; `nil` by default.
    /// - Returns: An instance according to the registration's ``Scope``.
    /// - Throws: ``ResolutionError``, with the whole path from the top-level request.
    public func resolve<Service: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil
    ) async throws(ResolutionError) -> Service {
        try await container.resolveAsync(type, name: name)
    }
}
