/// Resolves a dependency when the enclosing object is initialised, and stops the program with the
/// ``ResolutionError`` message if it cannot.
///
/// ```swift
/// @MainActor final class DailyBoxOfficeScreen {
///     @Inject var viewModel: DailyBoxOfficeViewModel
/// }
/// ```
/// It resolves from ``Container/current`` (``Container/shared`` unless a task bound another) or from the
/// container given. Prefer initializer injection for types you test, and for `Sendable` classes, whose
/// stored properties cannot be wrapper `var`s; see Docs/DIKit.md.
@propertyWrapper
public struct Inject<Service: Sendable>: Sendable {
    /// The resolved dependency.
    public let wrappedValue: Service

    /// Resolves `Service` now.
    /// - Parameters:
    ///   - name: The registration's name; `nil` by default.
    ///   - container: Where to resolve; ``Container/current`` when `nil` (the default).
    @inlinable
    public init(name: String? = nil, container: Container? = nil) {
        wrappedValue = (container ?? Container.current).require(Service.self, name: name)
    }
}

/// Resolves a dependency the first time it is read, exactly once, from any thread.
///
/// Use it to break a construction cycle or to defer an expensive dependency. A failed resolve stops
/// the program with the ``ResolutionError`` message, like ``Inject``.
@propertyWrapper
public struct LazyInject<Service: Sendable>: Sendable {
    private let storage: LazyStorage<Service>

    /// Prepares to resolve `Service` on first access.
    /// - Parameters:
    ///   - name: The registration's name; `nil` by default.
    ///   - container: Where to resolve; when `nil` (the default), the ``Container/current`` of the moment
    ///     this wrapper is created, so a task-local override in force then is honoured later too.
    public init(name: String? = nil, container: Container? = nil) {
        storage = LazyStorage(name: name, container: container ?? Container.current)
    }

    /// The dependency, resolved on first access and kept.
    public var wrappedValue: Service {
        storage.value
    }
}

/// Holds a dependency weakly: for objects in the ``Scope/weak`` scope that this holder must not keep
/// alive (a parent coordinator, a delegate).
///
/// It resolves at initialisation; `wrappedValue` is the object while anyone else holds it, and `nil`
/// after. It stops the program if the resolve fails, like ``Inject``.
@propertyWrapper
public struct WeakInject<Service: Sendable>: Sendable {
    private let reference: WeakReference

    /// Resolves `Service` now and holds it weakly.
    /// - Parameters:
    ///   - name: The registration's name; `nil` by default.
    ///   - container: Where to resolve; ``Container/current`` when `nil` (the default).
    public init(name: String? = nil, container: Container? = nil) {
        let instance = (container ?? Container.current).require(Service.self, name: name)
        guard type(of: instance as Any) is AnyClass else {
            // Deliberate, as in `Container.require`: a value type can never be held weakly, so this
            // declaration is a programming error that no caller could recover from.
            fatalError(
                "DIKit: @WeakInject \(Service.self) resolved a value of type \(type(of: instance as Any)), "
                    + "which cannot be held weakly. To fix, use @Inject, or make \(Service.self) a class.")
        }
        reference = WeakReference(instance as AnyObject)
    }

    /// The object, or `nil` once nobody else holds it.
    public var wrappedValue: Service? {
        reference.object as? Service
    }
}

/// Resolves a dependency at initialisation, or holds `nil` when nothing is registered for it.
///
/// Other failures (a cycle, a throwing factory) are programming errors and stop the program with their
/// ``ResolutionError`` message, like ``Inject``.
@propertyWrapper
public struct OptionalInject<Service: Sendable>: Sendable {
    /// The dependency, or `nil` when it is not registered.
    public let wrappedValue: Service?

    /// Resolves `Service` now if it is registered.
    /// - Parameters:
    ///   - name: The registration's name; `nil` by default.
    ///   - container: Where to resolve; ``Container/current`` when `nil` (the default).
    public init(name: String? = nil, container: Container? = nil) {
        let source = container ?? Container.current
        // The path this resolve starts from: empty at the top level, the factories being run when the
        // holder is built inside one. Only a missing registration for this very request, one step
        // below it, means "not registered"; a dependency missing deeper down is a real failure.
        let depth = ResolutionFrames.path(from: ResolutionFrames.current).count
        do {
            wrappedValue = try source.resolve(Service.self, name: name)
        } catch  where error.isNotRegistered(atDepth: depth + 1) {
            wrappedValue = nil
        } catch {
            // Deliberate, as in `Container.require`: a cycle or a failing factory is a programming error.
            fatalError(error.description)
        }
    }
}

extension ResolutionError {
    /// Whether nothing is registered for the service at the end of a path of `depth` services, that
    /// is, for the request itself rather than one of its dependencies.
    fileprivate func isNotRegistered(atDepth depth: Int) -> Bool {
        if case .notRegistered = reason, path.count == depth { return true }
        return false
    }
}

/// The once-only storage behind ``LazyInject``.
final class LazyStorage<Service: Sendable>: Sendable {
    private let name: String?
    private let container: Container
    private let resolved = Locked<Service?>(nil)
    /// Entered while resolving, so concurrent first reads resolve once.
    private let gate = CreationGate()

    init(name: String?, container: Container) {
        self.name = name
        self.container = container
    }

    var value: Service {
        if let value = resolved.withLock({ $0 }) { return value }
        let property = "@LazyInject \(Service.self)"
        let path = {
            NameDisplay.render(ResolutionFrames.path(from: ResolutionFrames.current)) + [property]
        }
        switch gate.enter(path: path) {
        case .entered:
            break
        case .reentered:
            // Deliberate, as in `Container.require`: the value is needed to make itself, a programming
            // error that no caller could recover from; stopping beats waiting on this thread forever.
            fatalError(
                "DIKit: \(property) was read while it was being resolved, on the same thread: a dependency "
                    + "cycle. To fix, break the cycle.")
        case .wouldWaitForever(let ownerPath):
            // Deliberate, for the same reason: two threads each wait for what the other is creating.
            fatalError(
                "DIKit: \(property) is being resolved by another thread, which waits for a service this "
                    + "thread is creating (its path: \(ownerPath.joined(separator: " → "))). To fix, break "
                    + "the cycle.")
        }
        defer { gate.leave() }
        if let value = resolved.withLock({ $0 }) { return value }
        let value = container.require(Service.self, name: name)
        resolved.withLock { $0 = value }
        return value
    }
}

/// A weak reference that may cross threads.
final class WeakReference: Sendable {
    private let storage: Locked<WeakSendableBox>

    init(_ object: AnyObject) {
        storage = Locked(WeakSendableBox(object: object))
    }

    var object: AnyObject? {
        storage.withLock { $0.object }
    }
}

struct WeakSendableBox: @unchecked Sendable {
    // @unchecked Sendable: the object was resolved as a `Sendable` service; it is only read back and
    // cast to that service type, never mutated through this box.
    weak var object: AnyObject?
}
