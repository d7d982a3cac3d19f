/// A kind of cache tier.
///
/// It grows: a minor version may add a case, so a `switch` over it ends with `@unknown default:`
/// (Docs/Versioning.md, "How public errors grow").
public enum CacheTier: String, Sendable, Hashable {
    /// The in-memory tier.
    case memory
    /// The on-disk tier.
    case disk
}
