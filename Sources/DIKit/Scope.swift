/// How long a resolved instance lives, and who shares it.
public enum Scope: Sendable, Hashable {
    /// A new instance on every resolve. The default.
    case transient
    /// One instance per container that owns the registration, created lazily on the first resolve and
    /// exactly once even when many threads resolve it first at the same moment.
    case singleton
    /// One shared instance while anyone outside the container holds it; once the last holder lets go it
    /// is released, and the next resolve creates a new one. Only for classes: resolving a value type
    /// registered this way throws ``ResolutionError/Reason/weakScopeNeedsAClass(instanceType:)``.
    case weak
    /// One instance per top-level resolve: every dependency in one object graph that asks for it gets
    /// the same instance, the next top-level resolve gets a new one.
    case graph
    /// Shared like ``singleton`` until ``Container/reset(scope:)`` releases every instance of this
    /// custom scope together (a user session on logout); the next resolve then makes a new one.
    case custom(CustomScope)

    /// Whether an instance resolves its dependencies in the container that owns its registration (a
    /// shared instance), rather than in the container it was asked from.
    var resolvesFromOwner: Bool {
        switch self {
        case .singleton, .weak, .custom: true
        case .transient, .graph: false
        }
    }

    /// Whether the container keeps the instance strongly once made.
    var keepsInstance: Bool {
        switch self {
        case .singleton, .custom: true
        case .transient, .weak, .graph: false
        }
    }

    /// How long an instance lives: a higher rank outlives a lower one. Two custom scopes share a rank
    /// and are not compared.
    var lifetimeRank: Int {
        switch self {
        case .singleton: 3
        case .custom: 2
        case .weak, .graph: 1
        case .transient: 0
        }
    }

    /// How the scope is written in messages: `singleton`, `custom "session"`.
    var rendered: String {
        switch self {
        case .transient: "transient"
        case .singleton: "singleton"
        case .weak: "weak"
        case .graph: "graph"
        case .custom(let scope): "custom \"\(scope.name)\""
        }
    }
}

/// The name of a custom scope, whose instances are released together by ``Container/reset(scope:)``.
///
/// ```swift
/// extension CustomScope {
///     static let session = CustomScope("session")
/// }
/// container.register(Cart.self, scope: .custom(.session)) { _ in Cart() }
/// container.reset(scope: .session)   // on logout
/// ```
public struct CustomScope: Sendable, Hashable {
    /// The scope's name, as messages print it.
    public let name: String

    /// Names a custom scope; two values with the same name are the same scope.
    /// - Parameter name: The scope's name, for example `"session"`.
    public init(_ name: String) {
        self.name = name
    }
}
