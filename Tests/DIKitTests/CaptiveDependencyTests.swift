import DIKit
import Testing

final class AppState: Sendable {
    let held: Service
    init(held: Service) { self.held = held }
}

@Suite("verify(): captive dependencies")
struct CaptiveDependencyTests {
    @Test func aSingletonCapturingAWeakInstanceIsReportedWithItsPath() throws {
        // Given
        let container = Container()
        container.register(Service.self, scope: .weak) { _ in Service() }
        container.register(AppState.self, scope: .singleton) { AppState(held: try $0.resolve()) }
        // When
        let report = try container.verify()
        // Then
        #expect(report.captiveDependencies.count == 1)
        #expect(
            report.captiveDependencies.first?.description.hasPrefix(
                "DIKit: captive dependency: AppState (singleton) → Service (weak).") == true)
        #expect(report.captiveDependencies.first?.holder.scope == .singleton)
        #expect(report.captiveDependencies.first?.captive.scope == .weak)
    }

    @Test func aSingletonCapturingATransientOrGraphInstanceIsReported() throws {
        // Given
        let container = Container()
        container.register(Service.self) { _ in Service() }
        container.register(Service.self, name: "graph", scope: .graph) { _ in Service() }
        container.register(AppState.self, scope: .singleton) { AppState(held: try $0.resolve()) }
        container.register(AppState.self, name: "graph", scope: .singleton) {
            AppState(held: try $0.resolve(name: "graph"))
        }
        // When
        let report = try container.verify()
        // Then
        #expect(
            report.captiveDependencies.count == 2)
        #expect(Set(report.captiveDependencies.map(\.captive.scope)) == [.transient, .graph])
    }

    @Test func aCaptiveFoundThroughATransientShowsTheWholePath() throws {
        // Given AppState (singleton) → Middle (transient) → Service (weak)
        final class Middle: Sendable {
            let service: Service
            init(service: Service) { self.service = service }
        }
        final class Root: Sendable {
            let middle: Middle
            init(middle: Middle) { self.middle = middle }
        }
        let container = Container()
        container.register(Service.self, scope: .weak) { _ in Service() }
        container.register(Middle.self) { Middle(service: try $0.resolve()) }
        container.register(Root.self, scope: .singleton) { Root(middle: try $0.resolve()) }
        // When
        let report = try container.verify()
        // Then
        #expect(
            report.captiveDependencies.map { $0.path.map(\.service) }.sorted { $0.count < $1.count } == [
                ["Root", "Middle"], ["Root", "Middle", "Service"],
            ])
    }

    @Test func aSingletonCapturingACustomScopeInstanceIsReported() throws {
        // Given
        let container = Container()
        container.register(Service.self, scope: .custom(.session)) { _ in Service() }
        container.register(AppState.self, scope: .singleton) { AppState(held: try $0.resolve()) }
        // When
        let report = try container.verify()
        // Then
        #expect(report.captiveDependencies.map(\.captive.scope) == [.custom(.session)])
    }

    @Test func aCaptiveIsFoundEvenWhenItsInstanceWasMadeEarlierInTheSameVerification() throws {
        // Given a custom-scope service verified on its own first (sorted before AppState's dependents)
        let container = Container()
        container.register(Service.self, scope: .custom(.session)) { _ in Service() }
        container.register(AppState.self, scope: .singleton) { AppState(held: try $0.resolve()) }
        container.register(ValueService.self) { _ in ValueService() }
        // When verified twice over one container
        let first = try container.verify()
        let second = try container.verify()
        // Then
        #expect(first.captiveDependencies.count == 1)
        #expect(second.captiveDependencies.count == 1)
    }

    @Test func dependenciesThatLiveAsLongAsTheirHolderAreNotReported() throws {
        // Given singletons on singletons, transients on anything, and a ready-made instance
        let container = Container()
        container.register(Service.self, scope: .singleton) { _ in Service() }
        container.register(AppState.self, scope: .singleton) { AppState(held: try $0.resolve()) }
        container.register(AppState.self, name: "fresh") { AppState(held: try $0.resolve()) }
        container.register(ValueService.self, instance: ValueService())
        // When
        let report = try container.verify()
        // Then
        #expect(report.captiveDependencies.isEmpty)
        #expect(report.description == "DIKit: no captive dependencies and no hidden overrides.")
    }

    @Test func verifyAsyncChecksAsyncRegistrationsAndTheirCaptives() async throws {
        // Given an async singleton capturing a transient, and an async factory that fails
        let container = Container()
        container.register(Service.self) { _ in Service() }
        container.registerAsync(AppState.self, scope: .singleton) { AppState(held: try await $0.resolve()) }
        container.registerAsync(Keychain.self) { _ in throw FactoryError() }
        // When
        let error = await #expect(throws: VerificationError.self) { try await container.verifyAsync() }
        // Then
        #expect(error?.failures.map(\.service) == ["Keychain"])
        #expect(error?.captiveDependencies.map { $0.path.map(\.service) } == [["AppState", "Service"]])
    }

    @Test func verifyListsAsyncRegistrationsAsSkipped() throws {
        // Given
        let container = Container()
        container.registerAsync(Keychain.self) { _ in Keychain() }
        // When
        let report = try container.verify()
        // Then
        #expect(report.skipped == ["Keychain"])
    }
}
