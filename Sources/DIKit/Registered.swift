/// A registration just made, returned by `register` so more types can be forwarded to it.
///
/// ```swift
/// container.register(KobisBoxOfficeRepository.self, scope: .singleton) { resolver in
///     KobisBoxOfficeRepository(provider: try resolver.resolve())
/// }
/// .implements(BoxOfficeRepository.self, MovieRepository.self)
/// ```
public struct Registered<Service: Sendable>: Sendable {
    /// The container holding the registration.
    public let container: Container
    /// The registration's name; forwarded types are registered under the same one.
    public let name: String?
    /// How the registration's factory runs; forwarded types run the same way.
    var kind: RegistrationDescription.Kind = .synchronous

    /// Registers each of `types` as resolving this registration's instance, so one registration serves
    /// several protocols and its scope decides sharing for all of them.
    ///
    /// Each forwarded type is a registration of its own, under the same name, that resolves `Service`
    /// and hands its instance over; it keeps nothing itself, so `verify()` looks through it. Swift
    /// cannot require `Service` to conform to a generic type, so the conversion is checked at resolve: an instance that is not a `Forwarded` throws
    /// ``ResolutionError`` with reason ``ResolutionError/Reason/doesNotConform(instanceType:)``, and
    /// ``Container/verify()`` reports it.
    /// - Parameter types: The types, usually protocols `Service` conforms to.
    /// - Returns: This registration, to chain more calls.
    @discardableResult
    public func implements<each Forwarded: Sendable>(_ types: repeat (each Forwarded).Type) -> Self {
        repeat forward(to: (each Forwarded).self)
        return self
    }

    private func forward<Forwarded: Sendable>(to _: Forwarded.Type) {
        let name = name
        let forwarded = RegistrationDescription(Forwarded.self, Void.self, name: name)
        container.store(
            Registration<Forwarded, Void>(
                name: name, scope: .transient, ownerLock: container.lock, kind: kind, isForwarding: true
            ) { resolver, _ in
                let instance = try resolver.resolve(Service.self, name: name)
                guard let converted = instance as? Forwarded else {
                    throw ResolutionError(
                        reason: .doesNotConform(instanceType: String(describing: type(of: instance as Any))),
                        requested: forwarded, path: ResolutionFrames.path(from: ResolutionFrames.current))
                }
                return converted
            })
    }
}
