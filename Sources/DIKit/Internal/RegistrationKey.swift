/// Identifies one registration: the service type, the argument types and the name.
///
/// Two keys are equal only when both metatypes are the same, so a key determines the exact generic type
/// of the ``Registration`` stored under it (the container relies on this to skip a dynamic cast). Async
/// registrations file their key under ``AsyncFactoryMarker`` as the argument type, so a synchronous
/// resolve can never find one.
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

    /// The hash a `Dictionary` asks for, without a `Hasher` for unnamed keys.
    ///
    /// Every resolve looks a key up, and seeding and finalising a `Hasher` was a quarter of the time of
    /// resolving a graph. Keys are types chosen by the program, never by an outsider, so a fast mix of
    /// the two type identities (multiply, xor-shift, seeded by the dictionary) spreads them well enough;
    /// named keys add the name's own hash. This is `Hashable`'s documented customisation point for
    /// types that can hash faster than `hash(into:)`; equal keys still hash equally.
    @inlinable
    func _rawHashValue(seed: Int) -> Int {
        var bits = UInt64(UInt(bitPattern: Int(bitPattern: service))) &* 0x9E37_79B9_7F4A_7C15
        bits ^= UInt64(UInt(bitPattern: Int(bitPattern: arguments))) &+ UInt64(UInt(bitPattern: seed))
        if let name { bits ^= UInt64(UInt(bitPattern: name.hashValue)) }
        bits = (bits ^ (bits >> 31)) &* 0xBF58_476D_1CE4_E5B9
        bits ^= bits >> 29
        return Int(truncatingIfNeeded: bits)
    }

    @inlinable
    static func == (lhs: RegistrationKey, rhs: RegistrationKey) -> Bool {
        lhs.service == rhs.service && lhs.arguments == rhs.arguments && lhs.name == rhs.name
    }
}

/// The argument type under which async registrations are filed.
enum AsyncFactoryMarker {}

extension RegistrationKey {
    /// For a key without arguments, the same type and name filed as the other kind (async for a
    /// synchronous key, synchronous for an async one); `nil` for keys with arguments.
    var otherKind: RegistrationKey? {
        let none = ObjectIdentifier(Void.self)
        let async = ObjectIdentifier(AsyncFactoryMarker.self)
        guard arguments == none || arguments == async else { return nil }
        return RegistrationKey(service: service, arguments: arguments == none ? async : none, name: name)
    }
}

/// How a registration is named in messages.
@usableFromInline
struct RegistrationDescription: Sendable {
    /// How the factory runs, as close matches say it.
    @usableFromInline
    enum Kind: Sendable {
        case synchronous
        case mainActor
        case async
    }

    let service: TypeName
    let name: String?
    /// `nil` when the factory takes no arguments.
    let arguments: String?
    let kind: Kind

    @usableFromInline
    init<Service, Arguments>(
        _ service: Service.Type, _ arguments: Arguments.Type, name: String?, kind: Kind = .synchronous
    ) {
        self.service = TypeName(service)
        self.name = name
        let takesNone = Arguments.self == Void.self || Arguments.self == AsyncFactoryMarker.self
        self.arguments = takesNone ? nil : String(describing: arguments)
        self.kind = kind
    }

    /// The registration as lists print it: `Session named "live" with arguments Int`.
    var rendered: String {
        ResolutionError.render(service: service.short, name: name, arguments: arguments)
    }

    /// The registration as close matches print it, with how it is resolved when that differs.
    func rendered(_ display: NameDisplay) -> String {
        let text = ResolutionError.render(service: display(service), name: name, arguments: arguments)
        switch kind {
        case .synchronous: return text
        case .mainActor: return text + " (registered with registerOnMainActor)"
        case .async: return text + " (registered with registerAsync: resolve it with await resolveAsync)"
        }
    }
}
