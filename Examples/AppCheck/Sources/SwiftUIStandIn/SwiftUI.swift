// A stand-in for the names SwiftUI declares that clash with this package's: a type named `Binding`.
// Linux has no SwiftUI; this module lets Examples/AppCheck compile the way around the clash that
// Docs/Binding.md gives.

/// SwiftUI's `Binding`, as far as the name goes.
public struct Binding<Value> {
    /// The value.
    public var wrappedValue: Value

    /// A binding to `value`.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }
}
