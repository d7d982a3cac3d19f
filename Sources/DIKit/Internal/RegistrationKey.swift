/// Identifies one registration: the service type, the argument types and the name.
///
/// Two keys are equal only when both metatypes are the same, so a key determines the exact generic type
/// of the ``Registration`` stored under it (the container relies on this to skip a dynamic cast).
@usableFromInline
struct RegistrationKey: Hashable, Sendable {
    @usableFromInline let service: ObjectIdentifier
    @usableFromInline let arguments: ObjectIdentifier
    @usableFromInline let name: String?

    @inlinable
    init(service: ObjectIdentifier, arguments: ObjectIdentifier, name: String?) {
        self.service = service
        self.arguments = arguments
        self.name = name
    }

    @inlinable
    init<Service, Arguments>(_ service: Service.Type, _ arguments: Arguments.Type, name: String?) {
        self.init(service: ObjectIdentifier(service), arguments: ObjectIdentifier(arguments), name: name)
    }

    @inlinable
    func hash(into hasher: inout Hasher) {
        hasher.combine(service)
        hasher.combine(arguments)
        if let name { hasher.combine(name) }
    }

    @inlinable
    static func == (lhs: RegistrationKey, rhs: RegistrationKey) -> Bool {
        lhs.service == rhs.service && lhs.arguments == rhs.arguments && lhs.name == rhs.name
    }
}

/// How a registration is named in messages.
@usableFromInline
struct RegistrationDescription: Sendable {
    let service: String
    let name: String?
    /// `nil` when the factory takes no arguments.
    let arguments: String?

    @usableFromInline
    init<Service, Arguments>(_ service: Service.Type, _ arguments: Arguments.Type, name: String?) {
        self.service = String(describing: service)
        self.name = name
        self.arguments = Arguments.self == Void.self ? nil : String(describing: arguments)
    }

    var rendered: String {
        ResolutionError.render(service: service, name: name, arguments: arguments)
    }
}
