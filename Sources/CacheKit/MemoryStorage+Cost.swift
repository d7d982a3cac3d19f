extension MemoryStorage {
    /// What `value` counts for against ``Configuration/totalCostLimit``: the app's cost closure when it
    /// set one, otherwise ``CacheCostCalculable/cacheCost`` when the value conforms, otherwise 1.
    ///
    /// The default asks the runtime whether the value conforms, a dynamic cast that was 43 % of a store's
    /// instructions (Docs/Performance-Causes.md). Where the answer cannot vary it is decided once, at `init`
    /// (``valuesOfExactTypeCostOne``): when `Value` is a struct, an enum or a class that does not
    /// conform, a value whose dynamic type is exactly `Value` costs 1 without a cast. Every other value
    /// takes the cast: an instance of a subclass, any value of an existential `Value` (whose
    /// `type(of:)` in generic code is the existential itself, so it is never compared), an `Optional`
    /// (which the cast looks inside), a tuple or a function.
    @inlinable
    func cost(of value: Value) -> Int {
        if let custom = configuration.customCost { return custom(value) }
        if defaultCostIsOne, ObjectIdentifier(type(of: value)) == ObjectIdentifier(Value.self) { return 1 }
        return (value as? any CacheCostCalculable)?.cacheCost ?? 1
    }

    /// Whether a value whose dynamic type is exactly `Value` costs 1 by default: `Value` does not conform
    /// to ``CacheCostCalculable`` and is a class, a struct or an enum other than `Optional`.
    static var valuesOfExactTypeCostOne: Bool {
        guard !(Value.self is any CacheCostCalculable.Type) else { return false }
        // A concrete class's metatype is `AnyObject.Type`; a class-bound existential's is not.
        if Value.self is AnyObject.Type { return true }
        // Structs and enums are told by their type metadata's kind, the word every metadata record starts
        // with in Swift's stable ABI (docs/ABI/TypeMetadata.rst): 0x200 a struct, 0x201 an enum, 0x202
        // `Optional`, 0x303 and 0x307 existentials. Any other kind keeps the cast.
        let metadata = unsafeBitCast(Value.self as Any.Type, to: UnsafeRawPointer.self)
        let kind = metadata.load(as: UInt.self)
        return kind == 0x200 || kind == 0x201
    }
}
