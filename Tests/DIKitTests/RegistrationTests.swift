import DIKit
import Testing

@Suite("Container: names, arguments, children and modules")
struct RegistrationTests {
    @Test func aFactoryResolvesItsDependenciesThroughTheResolver() throws {
        // Given
        let container = makeAppContainer()
        // When
        let viewModel: DailyBoxOfficeViewModel = try container.resolve()
        // Then
        #expect(viewModel.repository.session is LiveSession)
    }

    @Test func namedRegistrationsOfOneTypeAreDistinct() throws {
        // Given
        let container = Container()
        container.register(NetworkSessionType.self, name: "live") { _ in LiveSession() }
        container.register(NetworkSessionType.self, name: "replay") { _ in RecordingSession() }
        // When
        let live = try container.resolve(NetworkSessionType.self, name: "live")
        let replay = try container.resolve(NetworkSessionType.self, name: "replay")
        // Then
        #expect(live is LiveSession)
        #expect(replay is RecordingSession)
    }

    @Test func factoriesReceiveOneTwoOrThreeRuntimeArguments() throws {
        // Given
        let container = Container()
        container.register(String.self) { (_, date: Int) in "date \(date)" }
        container.register(String.self) { (_, date: Int, mode: String) in "date \(date) \(mode)" }
        container.register(String.self) { (_, date: Int, mode: String, json: Bool) in
            "date \(date) \(mode) \(json)"
        }
        // When
        let one: String = try container.resolve(argument: 20_260_101)
        let two: String = try container.resolve(arguments: 20_260_101, "grid")
        let three: String = try container.resolve(arguments: 20_260_101, "grid", true)
        // Then
        #expect(one == "date 20260101")
        #expect(two == "date 20260101 grid")
        #expect(three == "date 20260101 grid true")
    }

    @Test func aChildSeesItsParentsRegistrations() throws {
        // Given
        let parent = makeAppContainer()
        let child = parent.makeChild()
        // When
        let viewModel: DailyBoxOfficeViewModel = try child.resolve()
        // Then
        #expect(viewModel.repository.session is LiveSession)
    }

    @Test func aChildOverridesItsParentForResolvesMadeThroughIt() throws {
        // Given
        let parent = Container()
        parent.register(NetworkSessionType.self) { _ in LiveSession() }
        parent.register(BoxOfficeRepository.self) { resolver in
            KobisRepository(session: try resolver.resolve())
        }
        let child = parent.makeChild()
        child.register(NetworkSessionType.self) { _ in RecordingSession() }
        // When
        let throughChild: BoxOfficeRepository = try child.resolve()
        let throughParent: BoxOfficeRepository = try parent.resolve()
        // Then
        #expect(throughChild.session is RecordingSession)
        #expect(throughParent.session is LiveSession)
    }

    @Test func aParentSingletonNeverCapturesAChildsOverride() throws {
        // Given a parent singleton first resolved through a child that overrides its dependency
        let parent = Container()
        parent.register(NetworkSessionType.self) { _ in LiveSession() }
        parent.register(BoxOfficeRepository.self, scope: .singleton) { resolver in
            KobisRepository(session: try resolver.resolve())
        }
        let child = parent.makeChild()
        child.register(NetworkSessionType.self) { _ in RecordingSession() }
        // When
        let repository: BoxOfficeRepository = try child.resolve()
        // Then the singleton belongs to the parent and was built from the parent's registrations
        #expect(repository.session is LiveSession)
    }

    @Test func modulesGroupRegistrations() throws {
        // Given
        struct NetworkModule: Module {
            func register(in container: Container) {
                container.register(NetworkSessionType.self, scope: .singleton) { _ in LiveSession() }
            }
        }
        struct BoxOfficeModule: Module {
            func register(in container: Container) {
                container.register(BoxOfficeRepository.self) { resolver in
                    KobisRepository(session: try resolver.resolve())
                }
            }
        }
        let container = Container()
        // When
        container.install(NetworkModule(), BoxOfficeModule())
        // Then
        let repository: BoxOfficeRepository = try container.resolve()
        #expect(repository.session is LiveSession)
    }
}
