/// Why a service could not be resolved, and where: the requested type and name, the path of resolves
/// that led to it, and registrations that look close.
///
/// Its `description` is a message a person can act on:
/// ```text
/// DIKit: no registration for NetworkSessionType.
///   Resolution path: DailyBoxOfficeViewModel → BoxOfficeRepository → NetworkSessionType
///   Registered close matches: NetworkSessionType named "live"
///   To fix, register NetworkSessionType (with no name) in the container or a module it installs.
/// ```
public struct ResolutionError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    ///
    /// It grows: a minor version may add a case, so a `switch` over it ends with `@unknown default:`
    /// (Docs/Versioning.md, "How public errors grow").
    public enum Reason: Sendable {
        /// Nothing is registered for the type, name and argument types.
        case notRegistered
        /// Resolving the service needed the service itself; the associated value is the cycle, from the
        /// first occurrence to the repeated one (`["A", "B", "A"]`).
        case cycle([String])
        /// The factory threw an error of its own.
        case factoryFailed(any Error)
        /// The registration is ``Scope/weak`` but the factory made a value type, which cannot be held
        /// weakly.
        case weakScopeNeedsAClass(instanceType: String)
        /// The service is being created on another thread that waits, directly or through other threads,
        /// for a service this thread is creating: waiting would never end, so this resolve fails instead.
        /// The associated value is the path the other thread was resolving when it began to wait; ``path``
        /// is this thread's.
        case crossThreadCycle(otherThreadPath: [String])
        /// The factory was registered with `registerOnMainActor`, and the resolve that needed it ran off
        /// the main actor, so the factory was not called. Resolve it from the main actor, or with
        /// `resolveAsync`, which goes to the main actor for it.
        case requiresMainActor
        /// The service is forwarded (`implements`) to a registration whose instance, of the type named
        /// here, does not conform to the requested type.
        case doesNotConform(instanceType: String)
    }

    /// What went wrong.
    public let reason: Reason
    /// The requested type, as Swift prints it (`NetworkSessionType`).
    public let service: String
    /// The requested registration name, or `nil` for the unnamed registration.
    public let name: String?
    /// The requested argument types, rendered as a tuple, or `nil` when the request had no arguments.
    public let arguments: String?
    /// Every service being resolved when the error happened, from the top-level request to this one.
    public let path: [String]
    /// Registrations that look close: the same type under other names, argument types or another kind
    /// (main-actor, async), a type with the same short name from another module, and the wrapped type
    /// when an `Optional` was requested by mistake.
    public let closeMatches: [String]

    /// Builds an error whose type names are told apart: a short name shared by two types in the message
    /// (the path, the request, the close matches) is printed with its module.
    init(
        reason: (NameDisplay) -> Reason, requested: RegistrationDescription, path: [TypeName],
        closeMatches: [RegistrationDescription] = [], hints: [String] = []
    ) {
        let display = NameDisplay(path + [requested.service] + closeMatches.map(\.service))
        self.init(
            reason: reason(display), service: display(requested.service), name: requested.name,
            arguments: requested.arguments, path: path.map(display.callAsFunction),
            closeMatches: (hints + closeMatches.map { $0.rendered(display) }).sorted())
    }

    /// Builds an error whose reason names no types.
    init(reason: Reason, requested: RegistrationDescription, path: [TypeName]) {
        self.init(reason: { _ in reason }, requested: requested, path: path)
    }

    init(
        reason: Reason, service: String, name: String?, arguments: String?, path: [String],
        closeMatches: [String]
    ) {
        self.reason = reason
        self.service = service
        self.name = name
        self.arguments = arguments
        self.path = path
        self.closeMatches = closeMatches
    }

    /// The path joined with arrows: `A → B → C`.
    public var renderedPath: String {
        path.joined(separator: " → ")
    }

    /// A message naming what failed, where, and how to fix it.
    public var description: String {
        var lines: [String] = []
        let requested = Self.render(service: service, name: name, arguments: arguments)
        switch reason {
        case .notRegistered:
            lines.append("DIKit: no registration for \(requested).")
        case .cycle(let cycle):
            lines.append("DIKit: dependency cycle \(cycle.joined(separator: " → ")).")
        case .factoryFailed(let error):
            lines.append("DIKit: the factory for \(requested) threw: \(error)")
        case .weakScopeNeedsAClass(let instanceType):
            lines.append(
                "DIKit: \(requested) is registered in the weak scope, but its factory made \(instanceType), "
                    + "a value type that cannot be held weakly.")
        case .crossThreadCycle(let otherThreadPath):
            lines.append(
                "DIKit: \(requested) is being created by another thread, which waits for a service this thread "
                    + "is creating (its path: \(otherThreadPath.joined(separator: " → "))); waiting would never end."
            )
        case .requiresMainActor:
            lines.append(
                "DIKit: \(requested) is registered with a main-actor factory, and was resolved off the main actor."
            )
        case .doesNotConform(let instanceType):
            lines.append(
                "DIKit: \(requested) is forwarded to a registration that made \(instanceType), which does not "
                    + "conform to \(service).")
        }
        lines.append("  Resolution path: \(renderedPath)")
        if !closeMatches.isEmpty {
            lines.append("  Registered close matches: \(closeMatches.joined(separator: "; "))")
        }
        lines.append("  To fix, \(remedy(requested: requested))")
        return lines.joined(separator: "\n")
    }

    private func remedy(requested: String) -> String {
        switch reason {
        case .notRegistered:
            return "register \(requested) in the container or in a module it installs"
                + " (a child container also sees its parent's registrations)."
        case .cycle:
            return "break the cycle: let one side receive the other later, through @LazyInject or a property"
                + " set after both exist."
        case .factoryFailed:
            return "make the factory for \(service) succeed; the error above is its own."
        case .weakScopeNeedsAClass:
            return "register \(service) in the transient or singleton scope, or make it a class."
        case .crossThreadCycle:
            return "break the cycle between the two paths: let one side receive the other later, through "
                + "@LazyInject or a property set after both exist."
        case .requiresMainActor:
            return "resolve \(service) from the main actor (a @MainActor function or test), or with "
                + "`await resolveAsync`, which goes to the main actor for it."
        case .doesNotConform:
            return "forward \(service) from a registration whose instances conform to it."
        }
    }

    static func render(service: String, name: String?, arguments: String?) -> String {
        var text = service
        if let name { text += " named \"\(name)\"" }
        if let arguments { text += " with arguments \(arguments)" }
        return text
    }
}

/// Every failure found by ``Container/verify()``, reported at once, with the warnings found beside them.
public struct VerificationError: Error, Sendable, CustomStringConvertible {
    /// One error per registration that could not be resolved.
    public let failures: [ResolutionError]
    /// Registrations skipped because their factories need runtime arguments.
    public let skipped: [String]
    /// The captive dependencies found among the registrations that did resolve.
    public let captiveDependencies: [CaptiveDependency]
    /// The hidden overrides found among the registrations that did resolve.
    public let hiddenOverrides: [HiddenOverride]

    /// All the failures, each with its path, then the captive dependencies and hidden overrides,
    /// separated by blank lines.
    public var description: String {
        let header = "DIKit: \(failures.count) registration(s) failed verification."
        return
            ([header] + failures.map(\.description) + captiveDependencies.map(\.description)
            + hiddenOverrides.map(\.description))
            .joined(separator: "\n\n")
    }
}
