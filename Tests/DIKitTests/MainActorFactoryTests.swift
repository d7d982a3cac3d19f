import DIKit
import Testing

@MainActor
final class ChartViewModel {
    let repository: any BoxOfficeRepository
    var title = "Chart"
    init(repository: any BoxOfficeRepository) { self.repository = repository }
}

@MainActor
final class ChartScreen {
    let viewModel: ChartViewModel
    init(viewModel: ChartViewModel) { self.viewModel = viewModel }
}

@Suite("Container: main-actor factories")
struct MainActorFactoryTests {
    @MainActor
    @Test func aMainActorFactoryResolvesFromTheMainActor() throws {
        // Given
        let container = makeAppContainer()
        container.registerOnMainActor(ChartViewModel.self) { @MainActor resolver in
            ChartViewModel(repository: try resolver.resolve())
        }
        // When
        let viewModel = try container.resolve(ChartViewModel.self)
        // Then
        #expect(viewModel.title == "Chart")
        #expect(viewModel.repository is KobisRepository)
    }

    @MainActor
    @Test func aMainActorFactoryTakesARuntimeArgument() throws {
        // Given
        let container = makeAppContainer()
        container.registerOnMainActor(ChartViewModel.self) { @MainActor (resolver, title: String) in
            let viewModel = ChartViewModel(repository: try resolver.resolve())
            viewModel.title = title
            return viewModel
        }
        // When
        let viewModel = try container.resolve(ChartViewModel.self, argument: "Today")
        // Then
        #expect(viewModel.title == "Today")
    }

    @MainActor
    @Test func mainActorFactoriesResolveEachOther() throws {
        // Given
        let container = makeAppContainer()
        container.registerOnMainActor(ChartViewModel.self) { @MainActor resolver in
            ChartViewModel(repository: try resolver.resolve())
        }
        container.registerOnMainActor(ChartScreen.self) { @MainActor resolver in
            ChartScreen(viewModel: try resolver.resolve())
        }
        // When
        let screen = try container.resolve(ChartScreen.self)
        // Then
        #expect(screen.viewModel.title == "Chart")
    }

    @Test func aMainActorFactoryResolvedOffTheMainActorIsATypedErrorAndIsNotCalled() async throws {
        // Given
        let container = makeAppContainer()
        let called = Counter()
        container.registerOnMainActor(ChartViewModel.self) { @MainActor resolver in
            called.increment()
            return ChartViewModel(repository: try resolver.resolve())
        }
        // When resolved on a thread that is not the main thread
        let error = await Task.detached {
            do throws(ResolutionError) {
                _ = try container.resolve(ChartViewModel.self)
                return nil as ResolutionError?
            } catch {
                return error
            }
        }.value
        // Then
        guard case .requiresMainActor = error?.reason else {
            Issue.record("expected requiresMainActor, got \(String(describing: error))")
            return
        }
        #expect(error?.renderedPath == "ChartViewModel")
        #expect(called.value == 0)
    }

    @Test func resolveAsyncGoesToTheMainActorForAMainActorFactory() async throws {
        // Given
        let container = makeAppContainer()
        container.registerOnMainActor(ChartViewModel.self) { @MainActor resolver in
            ChartViewModel(repository: try resolver.resolve())
        }
        // When resolved from a task off the main actor
        let viewModel = try await Task.detached { try await container.resolveAsync(ChartViewModel.self) }
            .value
        // Then
        #expect(await viewModel.title == "Chart")
    }

    @Test func aMainActorRegistrationIsNamedInCloseMatches() async {
        // Given
        let container = Container()
        container.registerOnMainActor(ChartViewModel.self, name: "main") { @MainActor _ in
            ChartViewModel(repository: KobisRepository(session: LiveSession()))
        }
        // When
        let error = #expect(throws: ResolutionError.self) { try container.resolve(ChartViewModel.self) }
        // Then
        #expect(
            error?.closeMatches == ["ChartViewModel named \"main\" (registered with registerOnMainActor)"])
    }

    @Test func resolveAsyncGoesToTheMainActorForAForwardedMainActorType() async throws {
        // Given
        let container = makeAppContainer()
        container.registerOnMainActor(ChartViewModel.self) { @MainActor resolver in
            ChartViewModel(repository: try resolver.resolve())
        }
        .implements(ChartPresenting.self)
        // When resolved from a task off the main actor
        let presenter = try await Task.detached { try await container.resolveAsync(ChartPresenting.self) }
            .value
        // Then
        #expect(presenter is ChartViewModel)
    }

    @Test func verifyAsyncVerifiesMainActorFactoriesOnTheMainActor() async throws {
        // Given
        let container = makeAppContainer()
        container.registerOnMainActor(ChartViewModel.self) { @MainActor resolver in
            ChartViewModel(repository: try resolver.resolve())
        }
        // When verified from a task off the main actor
        let report = try await Task.detached { try await container.verifyAsync() }.value
        // Then
        #expect(report.captiveDependencies.isEmpty)
    }

    @MainActor
    @Test func aMainActorSingletonMadeWhileItsScopeIsResetIsNotKept() throws {
        // Given a session-scoped view model whose factory ends the session while it runs
        let container = makeAppContainer()
        container.registerOnMainActor(ChartViewModel.self, scope: .custom(.session)) { @MainActor resolver in
            container.reset(scope: .session)
            return ChartViewModel(repository: try resolver.resolve())
        }
        // When
        let made = try container.resolve(ChartViewModel.self)
        // Then
        #expect(try container.resolve(ChartViewModel.self) !== made)
    }
}

protocol ChartPresenting: Sendable {}
extension ChartViewModel: ChartPresenting {}
