/// What a shared scope keeps of one registration's instance, guarded by its owner's lock.
@usableFromInline
struct KeptInstance<Service: Sendable> {
    /// The singleton or custom-scope instance once made, or a ready-made one: what the hot path reads.
    @usableFromInline var strong: Service?
    /// A verification copy's instance: held apart from `strong`, so every resolve of it takes the slow
    /// path, where it is recorded.
    private var heldForVerification: Service?
    /// The weak-scoped object once made.
    private var weak = WeakObject()
    /// Counts releases, so an instance whose creation began before one is handed to its caller but not
    /// kept.
    private(set) var generation = 0

    @usableFromInline
    init(_ strong: Service?) {
        self.strong = strong
    }

    /// The instance kept, if any.
    var current: Service? {
        if let strong { return strong }
        if let heldForVerification { return heldForVerification }
        return weak.object as? Service
    }

    /// Keeps `made`, weakly as `weakObject` when there is one, unless the instances were released since
    /// `generation`.
    /// - Returns: The instance it replaced, to release after unlocking.
    mutating func keep(
        _ made: Service, weakObject: AnyObject?, forVerification: Bool, ifStillAt generation: Int
    )
        -> Service?
    {
        guard self.generation == generation else { return nil }
        if let weakObject {
            weak = WeakObject(weakObject)
            return nil
        }
        if forVerification {
            defer { heldForVerification = made }
            return heldForVerification
        }
        defer { strong = made }
        return strong
    }

    /// Drops every instance but `fixed` (a ready-made one, part of its registration).
    /// - Returns: What was held, to release after unlocking.
    mutating func release(keeping fixed: Service?) -> (Service?, Service?) {
        defer {
            strong = fixed
            heldForVerification = nil
            weak = WeakObject()
            generation &+= 1
        }
        return (strong, heldForVerification)
    }
}

extension RegistrationBase {
    /// The object the weak scope holds for `made`; `nil` for the scopes that keep strongly.
    /// - Throws: ``ResolutionError/Reason/weakScopeNeedsAClass(instanceType:)`` for a value type.
    func weakObject(for made: Any, path: () -> [TypeName]) throws(ResolutionError) -> AnyObject? {
        guard !scope.keepsInstance else { return nil }
        guard type(of: made) is AnyClass else {
            throw ResolutionError(
                reason: .weakScopeNeedsAClass(instanceType: String(describing: type(of: made))),
                requested: description, path: path())
        }
        return made as AnyObject
    }
}
