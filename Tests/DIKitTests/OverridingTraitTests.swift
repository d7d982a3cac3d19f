import DIKit
import DIKitTesting
import Testing

final class TraitStub: Sendable {
    let label: String
    init(label: String) { self.label = label }
}

@Suite("DIKitTesting: the overriding trait")
struct OverridingTraitTests {
    @Test(.overriding { $0.register(TraitStub.self) { _ in TraitStub(label: "first") } })
    func aTestSeesItsOwnOverride() throws {
        // When
        let stub = try Container.current.resolve(TraitStub.self)
        // Then
        #expect(stub.label == "first")
        #expect(!Container.shared.isRegistered(TraitStub.self))
    }

    @Test(.overriding { $0.register(TraitStub.self) { _ in TraitStub(label: "second") } })
    func aParallelTestSeesOnlyItsOwn() async throws {
        // When
        await Task.yield()
        let stub = try Container.current.resolve(TraitStub.self)
        // Then
        #expect(stub.label == "second")
    }

    @Test func aTestWithoutTheTraitSeesNoOverride() {
        #expect(!Container.current.isRegistered(TraitStub.self))
    }
}

@Suite(.overriding { $0.register(TraitStub.self) { _ in TraitStub(label: "suite") } })
struct OverridingSuiteTraitTests {
    @Test func everyTestOfASuiteWithTheTraitSeesTheOverride() throws {
        #expect(try Container.current.resolve(TraitStub.self).label == "suite")
    }

    @Test func aNestedInjectSeesTheOverride() {
        struct Screen {
            @Inject var stub: TraitStub
        }
        #expect(Screen().stub.label == "suite")
    }
}

/// The app's own composition root, as the docs advise: a `Container()` of its own, not `.shared`.
enum TraitApp {
    static func makeContainer() -> Container {
        let container = Container()
        container.register(TraitStub.self) { _ in TraitStub(label: "live") }
        container.register(String.self, name: "greeting") { _ in "hello from the app" }
        return container
    }
}

@Suite("DIKitTesting: overriding the app's own container")
struct OverridingAppContainerTests {
    @Test(
        .overriding(
            of: { TraitApp.makeContainer() },
            { $0.register(TraitStub.self) { _ in TraitStub(label: "stub") } }))
    func theOverrideReplacesTheAppsRegistration() throws {
        // When
        let stub = try Container.current.resolve(TraitStub.self)
        // Then the stub wins, the app's other registrations are there, and `.shared` is untouched
        #expect(stub.label == "stub")
        #expect(try Container.current.resolve(String.self, name: "greeting") == "hello from the app")
        #expect(!Container.shared.isRegistered(TraitStub.self))
    }

    @Test(.overriding(of: { TraitApp.makeContainer() }, { _ in }))
    func anInjectInTheTestResolvesFromTheAppsGraph() {
        struct Screen {
            @Inject var stub: TraitStub
        }
        #expect(Screen().stub.label == "live")
    }

    @Test func withOverridesOfAContainerBindsCurrentToAChildOfIt() throws {
        // Given the app's container
        let app = TraitApp.makeContainer()
        // When
        let label = try Container.withOverrides(of: app) {
            $0.register(TraitStub.self) { _ in TraitStub(label: "stub") }
        } operation: {
            try Container.current.resolve(TraitStub.self).label
        }
        // Then the override was seen inside, and the app's container itself is unchanged
        #expect(label == "stub")
        #expect(try app.resolve(TraitStub.self).label == "live")
        #expect(Container.current === Container.shared)
    }

    @Test func anOverrideDoesNotReachASingletonTheAppMadeAboveIt() throws {
        // Given an app singleton that depends on the overridden service
        let app = TraitApp.makeContainer()
        app.register(String.self, name: "holder", scope: .singleton) { resolver in
            try resolver.resolve(TraitStub.self).label
        }
        // When a child overrides the dependency
        let seen = try Container.withOverrides(of: app) {
            $0.register(TraitStub.self) { _ in TraitStub(label: "stub") }
        } operation: {
            try Container.current.resolve(String.self, name: "holder")
        }
        // Then the singleton was made in the app's container, with the app's dependency (as documented)
        #expect(seen == "live")
    }
}
