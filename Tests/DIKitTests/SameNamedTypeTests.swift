import DIKit
import Testing

enum Auth {
    final class Session: Sendable {}
}

enum Player {
    final class Session: Sendable {}
    final class Controller: Sendable {
        init(session: Auth.Session) {}
    }
}

@Suite("Failures tell same-named types apart")
struct SameNamedTypeTests {
    @Test func aTypeWithTheRequestedShortNameFromAnotherModuleIsAQualifiedCloseMatch() {
        // Given Player.Session registered, Auth.Session requested
        let container = Container()
        container.register(Player.Session.self) { _ in Player.Session() }
        // When
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Auth.Session.self) }
        // Then
        #expect(error?.service == "DIKitTests.Auth.Session")
        #expect(error?.closeMatches == ["DIKitTests.Player.Session"])
    }

    @Test func namesThatAreNotAmbiguousStayShort() {
        // Given
        let container = Container()
        container.register(Player.Controller.self) { Player.Controller(session: try $0.resolve()) }
        // When
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Player.Controller.self) }
        // Then
        #expect(error?.renderedPath == "Controller → Session")
        #expect(error?.closeMatches == [])
    }
}
