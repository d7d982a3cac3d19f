import DIKit
import TestSupport
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

    @Test func anOverrideOfAForwardedTypeIsReported() throws {
        // Given an app that registers its repository once and forwards the protocol to it
        let app = Container()
        app.register(NetworkSessionType.self, scope: .singleton) { _ in LiveSession() }
        app.register(KobisRepository.self, scope: .singleton) { KobisRepository(session: try $0.resolve()) }
            .implements(BoxOfficeRepository.self)
        app.register(DailyBoxOfficeViewModel.self, scope: .singleton) {
            DailyBoxOfficeViewModel(repository: try $0.resolve())
        }
        // When a test's child overrides the forwarded protocol
        let test = app.makeChild()
        test.register(BoxOfficeRepository.self) { _ in KobisRepository(session: RecordingSession()) }
        // Then the app's view model, which resolved it in the app container, is reported
        let report = try test.verify()
        #expect(report.hiddenOverrides.map(\.dependency) == ["BoxOfficeRepository"])
        #expect(report.hiddenOverrides.first?.holder.service == "DailyBoxOfficeViewModel")
    }

    @Test func anOverrideForwardedInTheChildIsReported() throws {
        // Given a child that overrides the session by forwarding it to a stub of its own
        let test = appContainer().makeChild()
        test.register(RecordingSession.self) { _ in RecordingSession() }.implements(NetworkSessionType.self)
        // When / Then
        #expect(try test.verify().hiddenOverrides.map(\.dependency) == ["NetworkSessionType"])
    }

    @Test func aWeakInstanceOfTheParentIsTheHolderBlamed() throws {
        // Given a parent weak repository (it resolves where it is made, as a singleton does) used by a
        // singleton of the child
        let app = Container()
        app.register(NetworkSessionType.self, scope: .singleton) { _ in LiveSession() }
        app.register(BoxOfficeRepository.self, scope: .weak) { KobisRepository(session: try $0.resolve()) }
        let test = app.makeChild()
        test.register(NetworkSessionType.self) { _ in RecordingSession() }
        test.register(DailyBoxOfficeViewModel.self, scope: .singleton) {
            DailyBoxOfficeViewModel(repository: try $0.resolve())
        }
        // When
        let report = try test.verify()
        // Then the weak repository is named, not the child's own singleton
        #expect(report.hiddenOverrides.map(\.holder.service) == ["BoxOfficeRepository"])
        #expect(report.hiddenOverrides.first?.holder.scope == .weak)
    }

    @Test func anAsyncOverrideOfASynchronousRegistrationIsReported() async throws {
        // Given a child that overrides the synchronous session with an async factory
        let test = appContainer().makeChild()
        test.registerAsync(NetworkSessionType.self) { _ in RecordingSession() }
        // When
        let report = try await test.verifyAsync()
        // Then
        #expect(report.hiddenOverrides.map(\.dependency) == ["NetworkSessionType"])
    }

    @Test func hiddenOverridesAreKeptWhenVerificationFails() throws {
        // Given a hidden override beside a registration that fails
        let test = appContainer().makeChild()
        test.register(NetworkSessionType.self) { _ in RecordingSession() }
        test.register(Service.self) { _ in throw FactoryError() }
        // When
        let thrown = #expect(throws: VerificationError.self) { try test.verify() }
        // Then
        #expect(thrown?.hiddenOverrides.count == 1)
        #expect(thrown?.description.contains("hidden override") == true)
    }

    @Test func verificationKeepsNoInstanceItMadeAlive() throws {
        // Given a singleton whose instance reports its release
        let released = Recorder<String>()
        let app = Container()
        app.register(Tracked.self, scope: .singleton) { _ in Tracked(released: released) }
        // When the graph is verified and the report let go
        _ = try app.verify()
        // Then the copy's singleton was released with the copy
        #expect(released.values == ["tracked"])
    }
}

/// An instance that records its release.
final class Tracked: Sendable {
    let released: Recorder<String>
    init(released: Recorder<String>) { self.released = released }
    deinit { released.append("tracked") }
}
