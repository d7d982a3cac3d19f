import DIKit
import Foundation
import Testing

@Suite("Container: scopes")
struct ScopeTests {
    @Test func aTransientRegistrationMakesANewInstanceOnEveryResolve() throws {
        // Given
        let container = Container()
        container.register(Service.self) { _ in Service() }
        // When
        let first: Service = try container.resolve()
        let second: Service = try container.resolve()
        // Then
        #expect(first !== second)
    }

    @Test func aSingletonIsMadeLazilyAndThenShared() throws {
        // Given
        let container = Container()
        let made = Counter()
        container.register(Service.self, scope: .singleton) { _ in
            made.increment()
            return Service()
        }
        #expect(made.value == 0)
        // When
        let first: Service = try container.resolve()
        let second: Service = try container.resolve()
        // Then
        #expect(first === second)
        #expect(made.value == 1)
    }

    @Test func aRegisteredInstanceIsReturnedAsIs() throws {
        // Given
        let container = Container()
        let instance = Service()
        container.register(Service.self, instance: instance)
        // When
        let resolved: Service = try container.resolve()
        // Then
        #expect(resolved === instance)
    }

    @Test func aWeakInstanceIsSharedWhileSomeoneHoldsIt() throws {
        // Given
        let container = Container()
        container.register(Service.self, scope: .weak) { _ in Service() }
        // When
        let held: Service = try container.resolve()
        let again: Service = try container.resolve()
        // Then
        #expect(held === again)
    }

    @Test func aWeakInstanceIsReleasedWhenTheLastHolderLetsGo() throws {
        // Given
        let container = Container()
        container.register(Service.self, scope: .weak) { _ in Service() }
        weak var released: Service?
        var firstID: UUID?
        do {
            let held: Service = try container.resolve()
            released = held
            firstID = held.id
        }
        // When
        let next: Service = try container.resolve()
        // Then
        #expect(released == nil)
        #expect(next.id != firstID)
    }

    @Test func aWeakRegistrationOfAValueTypeFailsWithAClearError() {
        // Given
        let container = Container()
        container.register(ValueService.self, scope: .weak) { _ in ValueService() }
        // When
        let error = #expect(throws: ResolutionError.self) { try container.resolve(ValueService.self) }
        // Then
        #expect(error?.description.contains("value type that cannot be held weakly") == true)
    }

    @Test func aGraphInstanceIsSharedWithinOneResolveOnly() throws {
        // Given a pair whose both halves depend on a graph-scoped service
        struct Pair: Sendable {
            let left: Service
            let right: Service
        }
        let container = Container()
        container.register(Service.self, scope: .graph) { _ in Service() }
        container.register(Pair.self) { resolver in
            Pair(left: try resolver.resolve(), right: try resolver.resolve())
        }
        // When
        let first: Pair = try container.resolve()
        let second: Pair = try container.resolve()
        // Then
        #expect(first.left === first.right)
        #expect(first.left !== second.left)
    }

    @Test func reRegisteringReplacesTheEarlierRegistrationAndItsInstance() throws {
        // Given
        let container = Container()
        container.register(NetworkSessionType.self, scope: .singleton) { _ in LiveSession() }
        _ = try container.resolve(NetworkSessionType.self)
        // When
        container.register(NetworkSessionType.self, scope: .singleton) { _ in RecordingSession() }
        // Then
        #expect(try container.resolve(NetworkSessionType.self) is RecordingSession)
    }

    @Test func releasingInstancesKeepsRegistrationsButMakesNewSingletons() throws {
        // Given
        let container = Container()
        container.register(Service.self, scope: .singleton) { _ in Service() }
        let before: Service = try container.resolve()
        // When
        container.releaseInstances()
        // Then
        let after: Service = try container.resolve()
        #expect(before !== after)
    }

    @Test func releasingInstancesKeepsRegisteredInstances() throws {
        // Given
        let container = Container()
        let instance = Service()
        container.register(Service.self, instance: instance)
        // When
        container.releaseInstances()
        // Then
        #expect(try container.resolve(Service.self) === instance)
    }

    @Test func resetRemovesEveryRegistration() {
        // Given
        let container = makeAppContainer()
        // When
        container.reset()
        // Then
        #expect(!container.isRegistered(NetworkSessionType.self))
        #expect(throws: ResolutionError.self) { try container.resolve(NetworkSessionType.self) }
    }
}
