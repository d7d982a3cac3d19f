// swift-format-ignore-file
import DIKit  //-
import DIKitTesting
import Testing  //-

@Test(.overriding { $0.register(BoxOfficeRepository.self) { _ in StubRepository() } })
func theChartShowsTheStub() async throws {
    let repository: any BoxOfficeRepository = try Container.current.resolve()  // the stub, here only
    #expect(repository is StubRepository)
}

@Test(.overriding(of: { makeAppContainer() }) { $0.register(BoxOfficeRepository.self) { _ in StubRepository() } })
func theAppsGraphShowsTheStub() throws {
    let repository: any BoxOfficeRepository = try Container.current.resolve()   // the stub, over the app's graph
    #expect(repository is StubRepository)
}

/// The DIKit guide's testing examples, run as tests.
protocol BoxOfficeRepository: Sendable {}
struct StubRepository: BoxOfficeRepository {}
struct LiveRepository: BoxOfficeRepository {}

@Test @MainActor func theAppGraphIsComplete() throws {
    let report = try makeAppContainer().verify()
    #expect(report.captiveDependencies.isEmpty, "\(report)")
}

/// The app's composition root, for the verification example.
func makeAppContainer() -> Container {
    let container = Container()
    container.register(BoxOfficeRepository.self, scope: .singleton) { _ in LiveRepository() }
    return container
}
