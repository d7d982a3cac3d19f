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
