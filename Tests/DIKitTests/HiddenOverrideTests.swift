import DIKit
import Testing

@Suite("verify(): overrides a parent's shared instance does not see")
struct HiddenOverrideTests {
    /// An app container whose singleton repository depends on the session.
    func appContainer() -> Container {
        let app = Container()
        app.register(NetworkSessionType.self, scope: .singleton) { _ in LiveSession() }
        app.register(BoxOfficeRepository.self, scope: .singleton) {
            KobisRepository(session: try $0.resolve())
        }
        return app
    }

    @Test func anOverrideUnderAParentsSingletonIsReported() throws {
        // Given a test's child that overrides the session the app's singleton repository uses
        let test = appContainer().makeChild()
        test.register(NetworkSessionType.self) { _ in RecordingSession() }
        // When
        let report = try test.verify()
        // Then the override is reported: the repository is made in the app container, with its session
        #expect(report.hiddenOverrides.count == 1)
        #expect(report.hiddenOverrides.first?.holder.service == "BoxOfficeRepository")
        #expect(report.hiddenOverrides.first?.holder.scope == .singleton)
        #expect(report.hiddenOverrides.first?.dependency == "NetworkSessionType")
        #expect(report.description.contains("does not see the override of NetworkSessionType"))
        // And resolving shows why: the repository has the app's session, not the override
        let repository: any BoxOfficeRepository = try test.resolve()
        #expect(repository.session is LiveSession)
    }

    @Test func overridingTheSingletonTooHidesNothing() throws {
        // Given a child that registers the repository again beside the session it overrides
        let test = appContainer().makeChild()
        test.register(NetworkSessionType.self) { _ in RecordingSession() }
        test.register(BoxOfficeRepository.self, scope: .singleton) {
            KobisRepository(session: try $0.resolve())
        }
        // When
        let report = try test.verify()
        // Then
        #expect(report.hiddenOverrides.isEmpty)
        let repository: any BoxOfficeRepository = try test.resolve()
        #expect(repository.session is RecordingSession)
    }

    @Test func aTransientOfTheParentSeesTheOverrideAndIsNotReported() throws {
        // Given a parent whose repository is made per resolve, from the resolving container
        let app = Container()
        app.register(NetworkSessionType.self, scope: .singleton) { _ in LiveSession() }
        app.register(BoxOfficeRepository.self) { KobisRepository(session: try $0.resolve()) }
        let test = app.makeChild()
        test.register(NetworkSessionType.self) { _ in RecordingSession() }
        // When
        let report = try test.verify()
        // Then
        #expect(report.hiddenOverrides.isEmpty)
        let repository: any BoxOfficeRepository = try test.resolve()
        #expect(repository.session is RecordingSession)
    }

    @Test func aContainerWithoutOverridesHidesNothing() throws {
        #expect(try appContainer().verify().hiddenOverrides.isEmpty)
    }
}
