extension MemoryStorage {
    /// What `value` counts for against ``Configuration/totalCostLimit``: the app's cost closure when it
    /// set one, otherwise ``CacheCostCalculable/cacheCost`` when the value conforms, otherwise 1.
    ///
    /// The default asks the runtime whether the value conforms, a dynamic cast that was 43 % of a store's
    /// instructions (Docs/Performance-Causes.md). Where the answer cannot vary it is decided once, at
    /// `init` (``valuesOfExactTypeCostOne``): when `Value` is a struct, an enum or a class that does not
    /// conform, a value whose dynamic type is exactly `Value` costs 1 without a cast. Every other value
    /// takes the cast: an instance of a subclass (its `type(of:)` differs), and every value of a `Value`
    /// that is an existential, an `Optional`, `AnyHashable` (which the cast looks inside), a tuple or a
    /// function, which ``valuesOfExactTypeCostOne`` rules out whatever `type(of:)` says.
    @inlinable
    func cost(of value: Value) -> Int {
        if let custom = configuration.customCost { return custom(value) }
        if defaultCostIsOne, ObjectIdentifier(type(of: value)) == ObjectIdentifier(Value.self) { return 1 }
        return (value as? any CacheCostCalculable)?.cacheCost ?? 1
    }

    /// Whether a value whose dynamic type is exactly `Value` costs 1 by default: `Value` does not conform
    /// to ``CacheCostCalculable`` and is a class, or a struct or an enum other than `Optional` and
    /// `AnyHashable`.
    static var valuesOfExactTypeCostOne: Bool {
        guard !(Value.self is any CacheCostCalculable.Type),
            ObjectIdentifier(Value.self) != ObjectIdentifier(AnyHashable.self)
        else { return false }
        // The kind is the word every metadata record starts with in Swift's stable ABI
        // (docs/ABI/TypeMetadata.rst): 0x200 a struct, 0x201 an enum, 0x202 `Optional`, 0x303 and 0x307
        // existentials. On Apple platforms a class's first word is its isa pointer instead, so classes
        // are told by their metatype, after existentials are ruled out by kind: an existential's
        // metatype is never a class's, whatever the runtime says of `@objc` protocols.
        let metadata = unsafeBitCast(Value.self as Any.Type, to: UnsafeRawPointer.self)
        let kind = metadata.load(as: UInt.self)
        if kind == 0x303 || kind == 0x307 { return false }
        if Value.self is AnyObject.Type { return true }
        return kind == 0x200 || kind == 0x201
    }
}
