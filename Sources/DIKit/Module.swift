/// A group of related registrations, installed into a container as one (an "assembly").
///
/// ```swift
/// struct NetworkModule: Module {
///     func register(in container: Container) {
///         container.register(NetworkSessionType.self, scope: .singleton) { _ in URLSession.shared }
///     }
/// }
/// container.install(NetworkModule(), BoxOfficeModule())
/// ```
public protocol Module {
    /// Registers this module's services in `container`.
    /// - Parameter container: The container being configured.
    func register(in container: Container)
}
