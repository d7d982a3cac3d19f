/// Identifies one registration: the service type, the argument types and the name.
struct RegistrationKey: Hashable, Sendable {
    let service: ObjectIdentifier
    let arguments: ObjectIdentifier
    let name: String?

    init(service: ObjectIdentifier, arguments: ObjectIdentifier, name: String?) {
        self.service = service
        self.arguments = arguments
        self.name = name
    }

    init<Service, Arguments>(_ service: Service.Type, _ arguments: Arguments.Type, name: String?) {
        self.service = ObjectIdentifier(service)
        self.arguments = ObjectIdentifier(arguments)
        self.name = name
    }
}

/// How a registration is named in messages.
struct RegistrationDescription: Sendable {
    let service: String
    let name: String?
    /// `nil` when the factory takes no arguments.
    let arguments: String?

    init<Service, Arguments>(_ service: Service.Type, _ arguments: Arguments.Type, name: String?) {
        self.service = String(describing: service)
        self.name = name
        self.arguments = Arguments.self == Void.self ? nil : String(describing: arguments)
    }

    var rendered: String {
        ResolutionError.render(service: service, name: name, arguments: arguments)
    }
}
