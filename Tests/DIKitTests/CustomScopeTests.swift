import DIKit
import Testing

extension CustomScope {
    static let session = CustomScope("session")
}

@Suite("Container: custom scopes released together")
struct CustomScopeTests {
    @Test func aCustomScopeInstanceIsSharedUntilItsScopeIsReset() throws {
        // Given
        let container = Container()
        container.register(Service.self, scope: .custom(.session)) { _ in Service() }
        let before: Service = try container.resolve()
        #expect(try container.resolve(Service.self) === before)
        // When
        container.reset(scope: .session)
        // Then
        let after: Service = try container.resolve()
        #expect(after !== before)
    }

    @Test func resettingACustomScopeKeepsSingletonsAndOtherScopes() throws {
        // Given
        let container = Container()
        container.register(Service.self, scope: .singleton) { _ in Service() }
        container.register(Service.self, name: "cart", scope: .custom(.session)) { _ in Service() }
        container.register(Service.self, name: "other", scope: .custom(CustomScope("other"))) { _ in Service()
        }
        let singleton: Service = try container.resolve()
        let other: Service = try container.resolve(name: "other")
        // When
        container.reset(scope: .session)
        // Then
        #expect(try container.resolve(Service.self) === singleton)
        #expect(try container.resolve(Service.self, name: "other") === other)
    }

    @Test func resettingACustomScopeReleasesItsInstances() throws {
        // Given a session instance nobody outside the container holds
        let container = Container()
        container.register(Service.self, scope: .custom(.session)) { _ in Service() }
        weak var released: Service?
        do {
            let made: Service = try container.resolve()
            released = made
        }
        #expect(released != nil)
        // When
        container.reset(scope: .session)
        // Then
        #expect(released == nil)
    }

    @Test func aCustomScopeInstanceIsMadeOnceUnderConcurrentFirstResolves() async throws {
        // Given
        let container = Container()
        let made = Counter()
        container.register(Service.self, scope: .custom(.session)) { _ in
            made.increment()
            return Service()
        }
        // When
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<16 { group.addTask { _ = try? container.resolve(Service.self) } }
        }
        // Then
        #expect(made.value == 1)
    }
}
