/// How long a resolved instance lives, and who shares it.
public enum Scope: Sendable, Hashable {
    /// A new instance on every resolve. The default.
    case transient
    /// One instance per container that owns the registration, created lazily on the first resolve and
    /// exactly once even when many threads resolve it first at the same moment.
    case singleton
    /// One shared instance while anyone outside the container holds it; once the last holder lets go it
    /// is released, and the next resolve creates a new one. Only for classes: resolving a value type
    /// registered this way throws ``ResolutionError/Reason/weakScopeNeedsAClass``.
    case weak
    /// One instance per top-level resolve: every dependency in one object graph that asks for it gets
    /// the same instance, the next top-level resolve gets a new one.
    case graph
}
