/// What ``Container/verify()`` found besides failures: captive dependencies, overrides a shared
/// instance does not see, and what it could not check.
public struct VerificationReport: Sendable, CustomStringConvertible {
    /// Each place where an instance captures a dependency that should not live as long as it does.
    public let captiveDependencies: [CaptiveDependency]
    /// Overrides, in the verified container or a parent between it and a shared instance's owner, that
    /// the instance does not see, among the registrations verified.
    public let hiddenOverrides: [HiddenOverride]
    /// Registrations skipped because their factories need runtime arguments (and, for ``Container/verify()``,
    /// the async ones, which ``Container/verifyAsync()`` checks).
    public let skipped: [String]

    /// The captive dependencies and hidden overrides, one per line, or a line saying there are none.
    public var description: String {
        let lines = captiveDependencies.map(\.description) + hiddenOverrides.map(\.description)
        guard !lines.isEmpty else { return "DIKit: no captive dependencies and no hidden overrides." }
        return lines.joined(separator: "\n")
    }
}

/// An override a shared instance does not see: the instance (a singleton, a custom-scope or weak one) is
/// made in a container above the override, so it resolves its dependency there, and keeps that one.
/// Reported by ``Container/verify()`` as a warning; typical in a test that overrides a service of the
/// app's container while a singleton of the app still uses the real one.
public struct HiddenOverride: Sendable, Hashable, CustomStringConvertible {
    /// The shared instance's service and scope: the one that keeps the parent's dependency.
    public let holder: CaptiveDependency.Step
    /// The overridden service it depends on.
    public let dependency: String

    /// `DIKit: hidden override: AppState (singleton) is made in a parent container and resolves Session
    /// there, …`, with what to do about it.
    public var description: String {
        "DIKit: hidden override: \(holder.service) (\(holder.scope.rendered)) is made in a parent container "
            + "and resolves \(dependency) there, so it does not see the override of \(dependency). To fix, "
            + "override \(holder.service) too, or register it again where you override \(dependency)."
    }
}

/// An instance kept longer than its scope allows, because something longer-lived captured it: a
/// singleton holding a transient, weak or graph-scoped instance, or a custom-scope one of a scope it
/// outlives. Reported by ``Container/verify()`` as a warning.
public struct CaptiveDependency: Sendable, Hashable, CustomStringConvertible {
    /// One service on the path, with its scope.
    public struct Step: Sendable, Hashable {
        /// The service's type, as messages print it.
        public let service: String
        /// Its registration's scope.
        public let scope: Scope
    }

    /// From the holder (first) to the captive dependency (last), through the services between them.
    public let path: [Step]

    /// The holder, the service that keeps the captive alive.
    public var holder: Step { path[0] }
    /// The captured service.
    public var captive: Step { path[path.count - 1] }

    /// `DIKit: captive dependency: AppState (singleton) → Session (weak)`, with what to do about it.
    public var description: String {
        let chain = path.map { "\($0.service) (\($0.scope.rendered))" }.joined(separator: " → ")
        return "DIKit: captive dependency: \(chain). The \(holder.scope.rendered) \(holder.service) keeps "
            + "\(captive.service) alive beyond its \(captive.scope.rendered) scope. To fix, give \(captive.service) "
            + "a scope that lives as long, or let \(holder.service) resolve it when needed instead of keeping it."
    }
}

/// Collects, while ``Container/verify()`` resolves its throwaway copy, every dependency captured by a
/// longer-lived holder, and every dependency a shared instance resolved where it was made.
@usableFromInline
final class VerificationRecorder: Sendable {
    private let found = Locked<[CaptiveDependency]>([])
    /// Which registration each shared instance resolved for a dependency. Values only, no reference to
    /// a registration: the throwaway copy, and the instances it made, are released when `verify` ends.
    private let uses = Locked<Set<DependencyUse>>([])

    /// A shared instance's holder resolving a dependency through one registration.
    private struct DependencyUse: Hashable, Sendable {
        let holder: ObjectIdentifier
        let holderService: TypeName
        let holderScope: Scope
        let dependency: ObjectIdentifier
        let dependencyKey: RegistrationKey
        let dependencyService: TypeName
    }

    /// Records `registration` being resolved below the synchronous frames ending at `parent`.
    func record(_ registration: RegistrationBase, parent: UnsafeMutablePointer<ResolutionFrame>?) {
        var chain: [RegistrationBase] = []
        var cursor = parent
        var asyncParent: AsyncPathNode?
        while let frame = cursor {
            chain.append(frame.pointee.registration.takeUnretainedValue())
            asyncParent = frame.pointee.asyncParent
            cursor = frame.pointee.parent
        }
        var node = asyncParent
        while let current = node {
            chain.append(current.registration)
            node = current.parent
        }
        record(registration, holdersInnermostFirst: chain)
    }

    /// Records `registration` being resolved below the async path ending at `parent`.
    func record(_ registration: RegistrationBase, asyncParent parent: AsyncPathNode?) {
        var chain: [RegistrationBase] = []
        var node = parent
        while let current = node {
            chain.append(current.registration)
            node = current.parent
        }
        record(registration, holdersInnermostFirst: chain)
    }

    /// Records which registration the nearest shared holder resolved (for ``HiddenOverride``), then walks
    /// up to the nearest holder that keeps its instance, and records a captive dependency when that
    /// holder outlives `registration`.
    private func record(_ registration: RegistrationBase, holdersInnermostFirst chain: [RegistrationBase]) {
        let chain = chain.filter { !$0.isForwarding }
        // Singleton, custom and weak instances resolve their dependencies in the container that owns
        // them; a forwarded type counts too, since an override may replace it.
        if let holder = chain.first(where: { $0.scope.resolvesFromOwner }) {
            let use = DependencyUse(
                holder: ObjectIdentifier(holder), holderService: holder.description.service,
                holderScope: holder.scope, dependency: ObjectIdentifier(registration),
                dependencyKey: registration.key, dependencyService: registration.description.service)
            uses.withLock { _ = $0.insert(use) }
        }
        // A forwarded type keeps nothing: its target is what a holder captures.
        guard !registration.isForwarding else { return }
        guard let index = chain.firstIndex(where: { $0.scope.keepsInstance }) else { return }
        let holder = chain[index]
        guard holder.scope.lifetimeRank > registration.scope.lifetimeRank else { return }
        let links = Array(chain[...index].reversed()) + [registration]
        let display = NameDisplay(links.map(\.description.service))
        let captive = CaptiveDependency(
            path: links.map {
                CaptiveDependency.Step(service: display($0.description.service), scope: $0.scope)
            })
        found.withLock { if !$0.contains(captive) { $0.append(captive) } }
    }

    /// The report, or the error when any registration failed. `visible` gives the identity of the
    /// registration the verified container itself resolves for a key: a holder that resolved another
    /// one for its dependency was made above an override.
    func report(
        failures: [ResolutionError], skipped: [String], visible: (RegistrationKey) -> ObjectIdentifier?
    ) throws(VerificationError) -> VerificationReport {
        let captives = found.withLock { $0 }.sorted { $0.description < $1.description }
        let hiddenUses = uses.withLock { uses -> [DependencyUse] in
            defer { uses = [] }
            return Array(uses)
        }
        .filter { use in visible(use.dependencyKey).map { $0 != use.dependency } ?? false }
        let display = NameDisplay(hiddenUses.flatMap { [$0.holderService, $0.dependencyService] })
        let hidden = Set(
            hiddenUses.map {
                HiddenOverride(
                    holder: CaptiveDependency.Step(service: display($0.holderService), scope: $0.holderScope),
                    dependency: display($0.dependencyService))
            }
        ).sorted { $0.description < $1.description }
        if !failures.isEmpty {
            throw VerificationError(
                failures: failures, skipped: skipped.sorted(), captiveDependencies: captives,
                hiddenOverrides: hidden)
        }
        return VerificationReport(
            captiveDependencies: captives, hiddenOverrides: hidden, skipped: skipped.sorted())
    }
}
