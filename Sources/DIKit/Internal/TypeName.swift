/// A type's name as messages print it: short (`Session`), and with its module (`Auth.Session`) for when
/// two types in one message share the short name.
@usableFromInline
struct TypeName: Hashable, Sendable {
    let short: String
    let qualified: String

    @usableFromInline
    init(_ type: Any.Type) {
        short = String(describing: type)
        qualified = String(reflecting: type)
    }
}

/// Prints the names of one message: the short name, unless another type in the same message has the
/// same short name, in which case every type with that short name is printed with its module.
struct NameDisplay {
    private let ambiguous: Set<String>

    init(_ names: [TypeName]) {
        var qualifiedByShort: [String: Set<String>] = [:]
        for name in names { qualifiedByShort[name.short, default: []].insert(name.qualified) }
        ambiguous = Set(qualifiedByShort.filter { $0.value.count > 1 }.keys)
    }

    func callAsFunction(_ name: TypeName) -> String {
        ambiguous.contains(name.short) ? name.qualified : name.short
    }
}

extension NameDisplay {
    /// `names` told apart among themselves.
    static func render(_ names: [TypeName]) -> [String] {
        let display = NameDisplay(names)
        return names.map(display.callAsFunction)
    }
}
