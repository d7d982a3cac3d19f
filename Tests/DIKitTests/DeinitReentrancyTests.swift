import DIKit
import Foundation
import TestSupport
import Testing

/// The container lets go of instances after unlocking, so an instance's `deinit` may resolve from the
/// same container. Each test would hang without that rule; the watchdog turns a hang into a failure.
@Suite("Container: a deinit may call back into the container")
struct DeinitReentrancyTests {
    /// A container whose `Reentrant` singleton resolves a `String` from it in its deinit, and counts
    /// each time that resolve succeeded.
    func containerWithAReentrantSingleton() -> (Container, Counter) {
        let container = Container()
        let resolvedInDeinit = Counter()
        container.register(String.self) { _ in "dependency" }
        container.register(Reentrant.self, scope: .singleton) { _ in
            Reentrant { if (try? container.resolve(String.self)) != nil { resolvedInDeinit.increment() } }
        }
        return (container, resolvedInDeinit)
    }

    @Test func releasingInstancesReleasesASingletonWhoseDeinitResolves() throws {
        // Given a singleton, made once, whose deinit resolves from its own container
        let (container, resolvedInDeinit) = containerWithAReentrantSingleton()
        _ = try container.resolve(Reentrant.self)
        // When
        let finished = Watchdog.finishes { container.releaseInstances() }
        // Then
        try #require(finished, "releaseInstances() deadlocked")
        #expect(resolvedInDeinit.value == 1)
    }

    @Test func reRegisteringATypeReleasesItsSingletonWhoseDeinitResolves() throws {
        // Given
        let (container, resolvedInDeinit) = containerWithAReentrantSingleton()
        _ = try container.resolve(Reentrant.self)
        // When the registration is replaced
        let finished = Watchdog.finishes {
            container.register(Reentrant.self, scope: .singleton) { _ in Reentrant {} }
        }
        // Then
        try #require(finished, "register(_:) deadlocked")
        #expect(resolvedInDeinit.value == 1)
    }

    @Test func resettingReleasesASingletonWhoseDeinitAsksTheContainer() throws {
        // Given
        let container = Container()
        let askedInDeinit = Counter()
        container.register(Reentrant.self, scope: .singleton) { _ in
            Reentrant {
                if !container.isRegistered(Reentrant.self) { askedInDeinit.increment() }
            }
        }
        _ = try container.resolve(Reentrant.self)
        // When
        let finished = Watchdog.finishes { container.reset() }
        // Then the deinit ran after the registrations were gone
        try #require(finished, "reset() deadlocked")
        #expect(askedInDeinit.value == 1)
    }

    @Test func aLazyInjectedSingletonReleasedByItsContainerMayResolveInItsDeinit() throws {
        // Given a singleton read through @LazyInject, whose deinit resolves
        let (container, resolvedInDeinit) = containerWithAReentrantSingleton()
        do {
            let holder = LazyHolder(container: container)
            _ = holder.service
        }
        // When
        let finished = Watchdog.finishes { container.releaseInstances() }
        // Then
        try #require(finished, "releaseInstances() deadlocked")
        #expect(resolvedInDeinit.value == 1)
    }
}

/// Runs `onDeinit` when released.
final class Reentrant: Sendable {
    let onDeinit: @Sendable () -> Void
    init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}

private struct LazyHolder {
    @LazyInject var service: Reentrant

    init(container: Container) {
        _service = LazyInject(container: container)
    }
}
