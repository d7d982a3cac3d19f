import TestSupport
import Testing

@testable import DIKit

final class Database: Sendable {
    let session: any NetworkSessionType
    init(session: any NetworkSessionType) { self.session = session }
}

final class Keychain: Sendable {}

@Suite("Container: async factories")
struct AsyncFactoryTests {
    @Test func anAsyncFactoryIsAwaitedAndResolvesSynchronousDependencies() async throws {
        // Given
        let container = makeAppContainer()
        container.registerAsync(Database.self) { resolver in
            await Task.yield()
            return Database(session: try await resolver.resolve())
        }
        // When
        let database = try await container.resolveAsync(Database.self)
        // Then
        #expect(database.session is LiveSession)
    }

    @Test func anAsyncSingletonIsMadeOnceForManyTasksResolvingAtOnce() async throws {
        // Given a singleton whose factory is held open until every task asks for it
        let container = Container()
        let gate = AsyncGate()
        let made = Counter()
        container.registerAsync(Service.self, scope: .singleton) { _ in
            made.increment()
            await gate.enter()
            return Service()
        }
        // When
        let ids = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<8 {
                group.addTask { ObjectIdentifier(try await container.resolveAsync(Service.self)) }
            }
            await gate.waitUntilEntered()
            gate.open()
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        // Then
        #expect(made.value == 1)
        #expect(ids.count == 1)
    }

    @Test func aFailedAsyncSingletonIsNotCached() async throws {
        // Given a factory that fails the first time only
        let container = Container()
        let attempts = Counter()
        container.registerAsync(Service.self, scope: .singleton) { _ in
            attempts.increment()
            if attempts.value == 1 { throw FactoryError() }
            return Service()
        }
        // When
        await #expect(throws: ResolutionError.self) { try await container.resolveAsync(Service.self) }
        let second = try await container.resolveAsync(Service.self)
        // Then
        #expect(attempts.value == 2)
        #expect(try await container.resolveAsync(Service.self) === second)
    }

    @Test func tasksWaitingWhenTheFactoryFailsReceiveItsError() async throws {
        // Given a failing factory held open while a second task waits for it
        let container = Container()
        let gate = AsyncGate()
        let attempts = Counter()
        container.registerAsync(Service.self, scope: .singleton) { _ in
            attempts.increment()
            await gate.enter()
            throw FactoryError()
        }
        let creator = Task { try await container.resolveAsync(Service.self) }
        await gate.waitUntilEntered()
        let waiter = Task { try await container.resolveAsync(Service.self) }
        await waitWhile { container.waitingTaskCount(for: Service.self) < 1 }
        // When
        gate.open()
        // Then the factory ran once, and both tasks got its error
        for task in [creator, waiter] {
            let failure = await #expect(throws: ResolutionError.self) { try await task.value }
            guard case .factoryFailed = failure?.reason else {
                Issue.record("expected factoryFailed, got \(String(describing: failure))")
                continue
            }
        }
        #expect(attempts.value == 1)
    }

    @Test func anAsyncSingletonMadeWhileItsScopeIsResetIsNotKept() async throws {
        // Given a session-scoped service whose creation is in flight when the session ends
        let container = Container()
        let gate = AsyncGate()
        container.registerAsync(Service.self, scope: .custom(.session)) { _ in
            await gate.enter()
            return Service()
        }
        let creation = Task { try await container.resolveAsync(Service.self) }
        await gate.waitUntilEntered()
        // When
        container.reset(scope: .session)
        gate.open()
        let made = try await creation.value
        // Then the caller got it, but the next resolve makes a new one
        #expect(try await container.resolveAsync(Service.self) !== made)
    }

    @Test(arguments: [false, true])
    func aResolveThatBeginsAfterAResetNeverGetsTheInstanceMadeBeforeIt(releasingAll: Bool) async throws {
        // Given a session-scoped service whose creation is in flight when the session ends, and a resolve
        // that begins after the reset and waits for that creation
        let container = Container()
        let gate = AsyncGate()
        let attempts = Counter()
        container.registerAsync(Service.self, scope: .custom(.session)) { _ in
            attempts.increment()
            if attempts.value == 1 { await gate.enter() }
            return Service()
        }
        let creation = Task { try await container.resolveAsync(Service.self) }
        await gate.waitUntilEntered()
        if releasingAll { container.releaseInstances() } else { container.reset(scope: .session) }
        let next = Task { try await container.resolveAsync(Service.self) }
        await waitWhile { container.waitingTaskCount(for: Service.self) < 1 }
        // When the old creation finishes
        gate.open()
        let old = try await creation.value
        // Then the resolve that began after the reset gets a new instance, which is the one kept
        let new = try await next.value
        #expect(new !== old)
        #expect(try await container.resolveAsync(Service.self) === new)
        #expect(attempts.value == 2)
    }

    @Test func anUnstructuredTaskStartedByAFactoryIsNotPartOfItsPath() async throws {
        // Given a factory that starts a task which later resolves the same registration
        final class Poller: Sendable {}
        let container = Container()
        let later = Recorder<Task<Poller, any Error>>()
        container.registerAsync(Poller.self) { _ in
            later.append(Task { try await container.resolveAsync(Poller.self) })
            return Poller()
        }
        // When
        _ = try await container.resolveAsync(Poller.self)
        // Then the task's resolve is a new resolution, not a cycle
        let task = try #require(later.values.first)
        _ = try await task.value
    }

    @Test func registeringAsyncReplacesASynchronousRegistrationOfTheSameType() async throws {
        // Given
        let container = Container()
        container.register(Keychain.self) { _ in Keychain() }
        // When
        container.registerAsync(Keychain.self) { _ in Keychain() }
        // Then
        #expect(throws: ResolutionError.self) { try container.resolve(Keychain.self) }
        _ = try await container.resolveAsync(Keychain.self)
    }

    @Test func aChildsAsyncOverrideHidesItsParentsSynchronousRegistration() {
        // Given
        let parent = Container()
        parent.register(Keychain.self) { _ in Keychain() }
        let child = parent.makeChild()
        child.registerAsync(Keychain.self) { _ in Keychain() }
        // When
        let error = #expect(throws: ResolutionError.self) { try child.resolve(Keychain.self) }
        // Then
        #expect(error?.closeMatches.first?.contains("registerAsync") == true)
    }

    @Test func aCycleAcrossSuspensionPointsIsDetectedAndNamed() async {
        // Given A needs B and B needs A, each awaiting before it resolves
        final class A: Sendable { init(_ b: B) {} }
        final class B: Sendable { init(_ a: A) {} }
        let container = Container()
        container.registerAsync(A.self) { resolver in
            await Task.yield()
            return A(try await resolver.resolve())
        }
        container.registerAsync(B.self) { resolver in
            await Task.yield()
            return B(try await resolver.resolve())
        }
        // When
        let error = await #expect(throws: ResolutionError.self) { try await container.resolveAsync(A.self) }
        // Then
        guard case .cycle(let cycle) = error?.reason else {
            Issue.record("expected a cycle, got \(String(describing: error))")
            return
        }
        #expect(cycle == ["A", "B", "A"])
        #expect(error?.renderedPath == "A → B → A")
    }

    @Test func twoTasksCreatingSingletonsThatNeedEachOtherFailInsteadOfWaitingForever() async {
        // Given two async singletons that need each other, each created by its own task at once
        final class A: Sendable { init(_ b: B) {} }
        final class B: Sendable { init(_ a: A) {} }
        let container = Container()
        let gate = AsyncGate()
        container.registerAsync(A.self, scope: .singleton) { resolver in
            await gate.enter()
            return A(try await resolver.resolve())
        }
        container.registerAsync(B.self, scope: .singleton) { resolver in
            await gate.enter()
            return B(try await resolver.resolve())
        }
        let errors = Recorder<ResolutionError>()
        // When
        let finished = await Watchdog.finishes(within: 30) {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    do throws(ResolutionError) { _ = try await container.resolveAsync(A.self) } catch {
                        errors.append(error)
                    }
                }
                group.addTask {
                    do throws(ResolutionError) { _ = try await container.resolveAsync(B.self) } catch {
                        errors.append(error)
                    }
                }
                await gate.waitUntilEntered(2)
                gate.open()
            }
        }
        // Then
        #expect(finished)
        #expect(errors.values.count == 2)
        let crossTask = errors.values.filter {
            if case .crossThreadCycle = $0.reason { return true }
            return false
        }
        #expect(!crossTask.isEmpty)
    }

    @Test func theSynchronousResolveOfAnAsyncRegistrationPointsToResolveAsync() {
        // Given
        let container = Container()
        container.registerAsync(Keychain.self) { _ in Keychain() }
        // When
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Keychain.self) }
        // Then
        #expect(
            error?.closeMatches == [
                "Keychain (registered with registerAsync: resolve it with await resolveAsync)"
            ])
    }

    @Test func aFailureBelowAnAsyncFactoryNamesTheWholePath() async {
        // Given an async database that needs a repository whose session is missing
        let container = Container()
        container.register(BoxOfficeRepository.self) { resolver in
            KobisRepository(session: try resolver.resolve())
        }
        container.registerAsync(DailyBoxOfficeViewModel.self) { resolver in
            await Task.yield()
            return DailyBoxOfficeViewModel(repository: try await resolver.resolve())
        }
        // When
        let error = await #expect(throws: ResolutionError.self) {
            try await container.resolveAsync(DailyBoxOfficeViewModel.self)
        }
        // Then
        #expect(error?.renderedPath == "DailyBoxOfficeViewModel → BoxOfficeRepository → NetworkSessionType")
    }

    @Test func theGraphScopeIsSharedAcrossAsyncAndSynchronousFactoriesOfOneResolve() async throws {
        // Given a graph-scoped service reached from an async factory directly and through a sync one
        final class Pair: Sendable {
            let direct: Service
            let viaHolder: Service
            init(direct: Service, viaHolder: Service) {
                self.direct = direct
                self.viaHolder = viaHolder
            }
        }
        final class Holder: Sendable {
            let service: Service
            init(service: Service) { self.service = service }
        }
        let container = Container()
        container.register(Service.self, scope: .graph) { _ in Service() }
        container.register(Holder.self) { Holder(service: try $0.resolve()) }
        container.registerAsync(Pair.self) { resolver in
            let direct: Service = try await resolver.resolve()
            await Task.yield()
            let holder: Holder = try await resolver.resolve()
            return Pair(direct: direct, viaHolder: holder.service)
        }
        // When
        let first = try await container.resolveAsync(Pair.self)
        let second = try await container.resolveAsync(Pair.self)
        // Then
        #expect(first.direct === first.viaHolder)
        #expect(first.direct !== second.direct)
    }

    @Test func aChildsSynchronousOverrideHidesItsParentsAsyncRegistration() async throws {
        // Given
        let parent = Container()
        parent.registerAsync(Keychain.self, scope: .singleton) { _ in Keychain() }
        let stub = Keychain()
        let child = parent.makeChild()
        child.register(Keychain.self, instance: stub)
        // When
        let resolved = try await child.resolveAsync(Keychain.self)
        // Then
        #expect(resolved === stub)
    }
}

@Suite("Container: async paths in child tasks")
struct AsyncChildTaskPathTests {
    @Test func aChildTaskStartedByAnAsyncFactoryResolvesOnItsPath() async {
        // Given an async factory that resolves its dependency in an `async let`
        let container = Container()
        container.registerAsync(DailyBoxOfficeViewModel.self) { resolver in
            async let repository: any BoxOfficeRepository = resolver.resolve()
            return DailyBoxOfficeViewModel(repository: try await repository)
        }
        // When the dependency is missing
        let error = await #expect(throws: ResolutionError.self) {
            try await container.resolveAsync(DailyBoxOfficeViewModel.self)
        }
        // Then the error names the path through the child task
        #expect(error?.renderedPath == "DailyBoxOfficeViewModel → BoxOfficeRepository")
    }
}

@Suite("Container: isRegistered and async registrations")
struct AsyncIsRegisteredTests {
    @Test func aTypeRegisteredAsynchronouslyIsRegistered() {
        // Given
        let container = Container()
        // When
        container.registerAsync(Keychain.self) { _ in Keychain() }
        // Then
        #expect(container.isRegistered(Keychain.self))
        #expect(!container.isRegistered(Keychain.self, name: "other"))
    }

    @Test func aChildsAsyncOverrideIsWhatIsRegisteredThere() async throws {
        // Given a parent's synchronous registration, overridden by its child's async one
        let parent = Container()
        parent.register(Keychain.self) { _ in Keychain() }
        let child = parent.makeChild()
        child.registerAsync(Keychain.self) { _ in Keychain() }
        // When / Then the child answers for its own registration, which resolveAsync finds and the
        // synchronous resolve, which cannot await, does not
        #expect(child.isRegistered(Keychain.self))
        _ = try await child.resolveAsync(Keychain.self)
        #expect(throws: ResolutionError.self) { try child.resolve(Keychain.self) }
    }
}
