import DIKit
import Foundation
import Testing

@Suite("Property wrappers")
struct PropertyWrapperTests {
    @Test func injectResolvesAtInitInAStruct() {
        // Given
        struct Screen {
            @Inject var viewModel: DailyBoxOfficeViewModel
        }
        // When
        let screen = Container.$current.withValue(makeAppContainer()) { Screen() }
        // Then
        #expect(screen.viewModel.repository.session is LiveSession)
    }

    @Test func injectResolvesInAnActor() async {
        // Given
        actor Loader {
            @Inject var repository: BoxOfficeRepository
            func sessionIsLive() -> Bool { repository.session is LiveSession }
        }
        // When
        let loader = Container.$current.withValue(makeAppContainer()) { Loader() }
        // Then
        #expect(await loader.sessionIsLive())
    }

    @MainActor
    @Test func injectResolvesInAMainActorClass() {
        // Given
        @MainActor final class Screen {
            @Inject var viewModel: DailyBoxOfficeViewModel
        }
        // When
        let screen = Container.$current.withValue(makeAppContainer()) { Screen() }
        // Then
        #expect(screen.viewModel.repository.session is LiveSession)
    }

    @Test func injectResolvesFromTheTaskLocalOverrideByDefault() {
        // Given
        struct Screen {
            @Inject var session: NetworkSessionType
        }
        // When
        let screen = Container.withOverrides {
            $0.register(NetworkSessionType.self) { _ in RecordingSession() }
        } operation: {
            Screen()
        }
        // Then
        #expect(screen.session is RecordingSession)
        #expect(!Container.shared.isRegistered(NetworkSessionType.self))
    }

    @Test func overridesInParallelTasksDoNotSeeEachOther() async {
        // Given
        struct Probe {
            @Inject(name: "which") var which: String
        }
        // When
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<20 {
                group.addTask {
                    await Container.withOverrides {
                        $0.register(String.self, name: "which") { _ in "\(index)" }
                    } operation: {
                        await Task.yield()
                        return Probe().which == "\(index)"
                    }
                }
            }
            return await group.reduce(true) { $0 && $1 }
        }
        // Then
        #expect(results)
    }

    @Test func lazyInjectResolvesOnFirstAccessOnly() {
        // Given
        let container = Container()
        let made = Counter()
        container.register(Service.self) { _ in
            made.increment()
            return Service()
        }
        struct Holder {
            @LazyInject var service: Service
        }
        let holder = Container.$current.withValue(container) { Holder() }
        #expect(made.value == 0)
        // When
        let first = holder.service
        let second = holder.service
        // Then
        #expect(first === second)
        #expect(made.value == 1)
    }

    @Test func wrappersTakeAnExplicitContainer() {
        // Given
        let container = makeAppContainer()
        // When
        let injected = Inject<NetworkSessionType>(container: container)
        // Then
        #expect(injected.wrappedValue is LiveSession)
    }

    @Test func lazyInjectResolvesOnceUnderConcurrentFirstAccess() async {
        // Given
        let container = Container()
        let made = Counter()
        container.register(Service.self) { _ in
            made.increment()
            return Service()
        }
        let lazy = LazyInject<Service>(container: container)
        // When
        let ids = await withTaskGroup(of: UUID.self) { group in
            for _ in 0..<50 { group.addTask { lazy.wrappedValue.id } }
            return await group.reduce(into: Set<UUID>()) { $0.insert($1) }
        }
        // Then
        #expect(ids.count == 1)
        #expect(made.value == 1)
    }

    @Test func weakInjectDoesNotKeepItsObjectAlive() throws {
        // Given
        let container = Container()
        container.register(Service.self, scope: .weak) { _ in Service() }
        var strong: Service? = try container.resolve(Service.self)
        let holder = WeakInject<Service>(container: container)
        #expect(holder.wrappedValue === strong)
        // When
        strong = nil
        // Then
        #expect(holder.wrappedValue == nil)
        _ = strong
    }

    @Test func optionalInjectIsNilWhenNothingIsRegistered() {
        // Given
        let container = Container()
        // When
        let missing = OptionalInject<NetworkSessionType>(container: container)
        container.register(NetworkSessionType.self) { _ in LiveSession() }
        let present = OptionalInject<NetworkSessionType>(container: container)
        // Then
        #expect(missing.wrappedValue == nil)
        #expect(present.wrappedValue is LiveSession)
    }

    @Test func optionalInjectIsNilForAMissingRegistrationWhenItsHolderIsBuiltInsideAFactory() throws {
        // Given a registered screen whose factory builds an object holding an optional dependency that
        // nothing registers
        let container = Container()
        container.register(ScreenWithOptionalSession.self) { _ in
            ScreenWithOptionalSession(container: container)
        }
        // When
        let screen = try container.resolve(ScreenWithOptionalSession.self)
        // Then
        #expect(screen.session == nil)
    }

    @Test func optionalInjectIsNilWhenResolvedDirectlyInsideAFactory() throws {
        // Given
        let container = Container()
        container.register(String.self) { _ in
            OptionalInject<NetworkSessionType>(container: container).wrappedValue == nil
                ? "absent" : "present"
        }
        // When
        let answer = try container.resolve(String.self)
        // Then
        #expect(answer == "absent")
    }
}

/// Holds an optional dependency, as a view model might.
struct ScreenWithOptionalSession: Sendable {
    @OptionalInject var session: NetworkSessionType?

    init(container: Container) {
        _session = OptionalInject(container: container)
    }
}
