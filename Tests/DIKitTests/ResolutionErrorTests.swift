import DIKit
import Testing

@Suite("Container: failures name the path")
struct ResolutionErrorTests {
    @Test func aMissingRegistrationNamesTheWholeResolutionPath() {
        // Given an app graph without a network session
        let container = Container()
        container.register(BoxOfficeRepository.self) { resolver in
            KobisRepository(session: try resolver.resolve())
        }
        container.register(DailyBoxOfficeViewModel.self) { resolver in
            DailyBoxOfficeViewModel(repository: try resolver.resolve())
        }
        // When
        let error = #expect(throws: ResolutionError.self) {
            try container.resolve(DailyBoxOfficeViewModel.self)
        }
        // Then
        #expect(error?.renderedPath == "DailyBoxOfficeViewModel → BoxOfficeRepository → NetworkSessionType")
        #expect(error?.service == "NetworkSessionType")
        #expect(error?.description.contains("DIKit: no registration for NetworkSessionType.") == true)
        #expect(error?.description.contains("To fix, register NetworkSessionType") == true)
    }

    @Test func aMissingRegistrationListsTheSameTypeUnderOtherNamesAndArguments() {
        // Given
        let container = Container()
        container.register(NetworkSessionType.self, name: "live") { _ in LiveSession() }
        container.register(NetworkSessionType.self) { (_, timeout: Double) in LiveSession() }
        // When
        let error = #expect(throws: ResolutionError.self) { try container.resolve(NetworkSessionType.self) }
        // Then
        #expect(
            error?.closeMatches == [
                "NetworkSessionType named \"live\"", "NetworkSessionType with arguments Double",
            ])
        #expect(
            error?.description.contains("Registered close matches: NetworkSessionType named \"live\"") == true
        )
    }

    @Test func anOptionalInferredByMistakeIsPointedOut() {
        // Given
        let container = Container()
        container.register(Service.self) { _ in Service() }
        // When the call site infers Optional<Service> from its annotation
        let error = #expect(throws: ResolutionError.self) {
            let service: Service? = try container.resolve()
            _ = service
        }
        // Then
        #expect(error?.closeMatches.first?.contains("the request was inferred as an Optional") == true)
    }

    @Test func aCycleIsDetectedAndNamed() {
        // Given A needs B and B needs A
        final class A: Sendable { init(_ b: B) {} }
        final class B: Sendable { init(_ a: A) {} }
        let container = Container()
        container.register(A.self) { resolver in A(try resolver.resolve()) }
        container.register(B.self) { resolver in B(try resolver.resolve()) }
        // When
        let error = #expect(throws: ResolutionError.self) { try container.resolve(A.self) }
        // Then
        guard case .cycle(let cycle) = error?.reason else {
            Issue.record("expected a cycle, got \(String(describing: error))")
            return
        }
        #expect(cycle == ["A", "B", "A"])
        #expect(error?.description.contains("DIKit: dependency cycle A → B → A.") == true)
    }

    @Test func aCycleThroughDirectContainerCallsIsDetectedToo() {
        // Given factories that bypass their resolver and call the container directly
        final class A: Sendable { init(_ b: B) {} }
        final class B: Sendable { init(_ a: A) {} }
        let container = Container()
        container.register(A.self) { [unowned container] _ in A(try container.resolve()) }
        container.register(B.self) { [unowned container] _ in B(try container.resolve()) }
        // When
        let error = #expect(throws: ResolutionError.self) { try container.resolve(A.self) }
        // Then
        guard case .cycle(let cycle) = error?.reason else {
            Issue.record("expected a cycle, got \(String(describing: error))")
            return
        }
        #expect(cycle == ["A", "B", "A"])
    }

    @Test func aSingletonThatNeedsItselfIsACycleNotADeadlock() {
        // Given
        final class Loop: Sendable { init(_ other: Loop) {} }
        let container = Container()
        container.register(Loop.self, scope: .singleton) { resolver in Loop(try resolver.resolve()) }
        // When
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Loop.self) }
        // Then
        guard case .cycle(let cycle) = error?.reason else {
            Issue.record("expected a cycle")
            return
        }
        #expect(cycle == ["Loop", "Loop"])
    }

    @Test func aThrowingFactoryIsWrappedOnceWithItsPath() {
        // Given a repository whose session factory throws
        let container = Container()
        container.register(NetworkSessionType.self) { _ in throw FactoryError() }
        container.register(BoxOfficeRepository.self) { resolver in
            KobisRepository(session: try resolver.resolve())
        }
        // When
        let error = #expect(throws: ResolutionError.self) { try container.resolve(BoxOfficeRepository.self) }
        // Then
        guard case .factoryFailed(let underlying) = error?.reason else {
            Issue.record("expected a factory failure")
            return
        }
        #expect(underlying is FactoryError)
        #expect(error?.renderedPath == "BoxOfficeRepository → NetworkSessionType")
        #expect(
            error?.description.contains("the factory for NetworkSessionType threw: the disk is full") == true)
    }

    @Test func verifyReportsEveryBrokenRegistrationAtOnce() {
        // Given two registrations with missing dependencies, one healthy, one needing arguments
        let container = Container()
        container.register(BoxOfficeRepository.self) { resolver in
            KobisRepository(session: try resolver.resolve())
        }
        container.register(DailyBoxOfficeViewModel.self) { resolver in
            DailyBoxOfficeViewModel(repository: try resolver.resolve())
        }
        container.register(Service.self) { _ in Service() }
        container.register(String.self) { (_, code: Int) in "\(code)" }
        // When
        let error = #expect(throws: VerificationError.self) { try container.verify() }
        // Then
        let paths = error?.failures.map(\.renderedPath).sorted()
        #expect(
            paths == [
                "BoxOfficeRepository → NetworkSessionType",
                "DailyBoxOfficeViewModel → BoxOfficeRepository → NetworkSessionType",
            ])
        #expect(error?.skipped == ["String with arguments Int"])
        #expect(error?.description.contains("2 registration(s) failed verification") == true)
    }

    @Test func verifyLeavesTheRealSingletonsUnmade() throws {
        // Given
        let container = Container()
        let made = Counter()
        container.register(Service.self, scope: .singleton) { _ in
            made.increment()
            return Service()
        }
        // When
        try container.verify()
        // Then
        #expect(made.value == 1)
        _ = try container.resolve(Service.self)
        #expect(made.value == 2)
    }
}
