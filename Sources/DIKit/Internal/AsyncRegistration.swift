/// One async factory, and the instances its scope keeps.
final class AsyncRegistration<Service: Sendable>: RegistrationBase, @unchecked Sendable {
    // @unchecked Sendable: see `RegistrationBase`. `kept` is only touched while holding `ownerLock`; `creatorPath` and `waiters` only while holding
    // `AsyncCreations.lock`; `factory` is an immutable @Sendable closure.
    typealias Factory = @Sendable (AsyncResolver) async throws -> Service

    /// What a task that wants the shared instance is told to do.
    enum Entry: Sendable {
        /// Run the factory: this task creates the instance.
        case create
        /// The instance, made by another task.
        case made(Service)
        /// The creating task's factory failed with this error.
        case failed(ResolutionError)
        /// The creating task was cancelled before it made the instance: try again.
        case retry
        /// Waiting would never end; the path of the task creating the instance.
        case wouldWaitForever(creatorPath: [String])
    }

    /// A suspended task waiting for the instance, and the waits it added to the graph.
    struct Waiter {
        let continuation: CheckedContinuation<Entry, Never>
        let waitingRegistrations: [ObjectIdentifier]
    }

    let factory: Factory
    private var kept = KeptInstance<Service>(nil)
    private var creatorPath: [String]?
    private var waiters: [Waiter] = []

    init(
        name: String?, scope: Scope, ownerLock: ReadWriteLock, recorder: VerificationRecorder?,
        factory: @escaping Factory
    ) {
        self.factory = factory
        super.init(
            key: RegistrationKey(Service.self, AsyncFactoryMarker.self, name: name), scope: scope,
            ownerLock: ownerLock,
            description: RegistrationDescription(
                Service.self, AsyncFactoryMarker.self, name: name, kind: .async),
            recorder: recorder)
    }

    override func freshCopy(ownerLock lock: ReadWriteLock, recorder: VerificationRecorder?)
        -> RegistrationBase
    {
        AsyncRegistration(name: key.name, scope: scope, ownerLock: lock, recorder: recorder, factory: factory)
    }

    override func releaseInstances() {
        let released = ownerLock.withLock { kept.release(keeping: nil) }
        // Released after unlocking: the instance's deinit may resolve from this container.
        withExtendedLifetime(released) {}
    }

    override func verifyAsync(requester: Container, owner: Container) async throws(ResolutionError) {
        _ = try await instance(requester: requester, owner: owner)
    }

    // MARK: - Resolving

    /// An instance, made or shared according to the scope; see `Registration.instance` for the roles of
    /// `requester` and `owner`.
    func instance(requester: Container, owner: Container) async throws(ResolutionError) -> Service {
        let parent = AsyncResolution.active
        if let recorder { recorder.record(self, asyncParent: parent) }
        switch scope {
        case .transient:
            return try await make(resolvingFrom: requester, parent: parent)
        case .graph:
            guard let parent else { return try await make(resolvingFrom: requester, parent: nil) }
            if let existing = parent.graph.instance(of: self, as: Service.self) { return existing }
            return parent.graph.keep(try await make(resolvingFrom: requester, parent: parent), for: self)
        case .singleton, .weak, .custom:
            return try await sharedInstance(owner: owner, parent: parent)
        }
    }

    /// The shared instance: made once by the first task that wants it while the others wait for it.
    private func sharedInstance(owner: Container, parent: AsyncPathNode?) async throws(ResolutionError)
        -> Service
    {
        while true {
            if let existing = keptInstance() { return existing }
            // A cycle back to this registration must be reported before waiting for its creation, which
            // this very path would be running.
            try AsyncResolution.checkCycle(self, from: parent)
            switch await enter(parent: parent) {
            case .create:
                let generation = ownerLock.withReadLock { kept.generation }
                do {
                    let made = try await make(resolvingFrom: owner, parent: parent)
                    try keep(made, ifStillAt: generation, parent: parent)
                    finish(made: made, ifStillAt: generation)
                    return made
                } catch {
                    finish(telling: Task.isCancelled ? .retry : .failed(error))
                    throw error
                }
            case .made(let made):
                return made
            case .failed(let error):
                throw error
            case .retry:
                continue
            case .wouldWaitForever(let creatorPath):
                let path = (parent?.path ?? []) + [description.service]
                throw ResolutionError(
                    reason: .crossThreadCycle(otherThreadPath: creatorPath), requested: description,
                    path: path)
            }
        }
    }

    /// Becomes the creator, or waits for the creator's outcome, or learns that waiting would never end.
    private func enter(parent: AsyncPathNode?) async -> Entry {
        await withCheckedContinuation { (continuation: CheckedContinuation<Entry, Never>) in
            AsyncCreations.lock.withLock {
                if let existing = keptInstance() {
                    continuation.resume(returning: .made(existing))
                    return
                }
                guard let creatorPath else {
                    self.creatorPath = NameDisplay.render((parent?.path ?? []) + [description.service])
                    continuation.resume(returning: .create)
                    return
                }
                let creating = (parent?.registrations ?? []).filter {
                    $0.scope != .transient && $0.scope != .graph
                }
                .map(ObjectIdentifier.init)
                if AsyncCreations.waits(from: ObjectIdentifier(self), forAnyOf: Set(creating)) {
                    continuation.resume(returning: .wouldWaitForever(creatorPath: creatorPath))
                    return
                }
                AsyncCreations.add(waiters: creating, for: ObjectIdentifier(self))
                waiters.append(Waiter(continuation: continuation, waitingRegistrations: creating))
            }
        }
    }

    /// Ends this task's creation: the waiting tasks get `made` when no release happened since
    /// `generation`, and try again otherwise, so a resolve that began after a reset (a logout) never
    /// gets an instance whose creation began before it. Checked under the same lock as ``enter(parent:)``,
    /// so a task that starts waiting after a release always sees it here.
    private func finish(made: Service, ifStillAt generation: Int) {
        AsyncCreations.lock.withLock {
            let unchanged = ownerLock.withReadLock { kept.generation } == generation
            resumeWaiters(with: unchanged ? .made(made) : .retry)
        }
    }

    /// Ends this task's creation and tells every waiting task `entry`.
    private func finish(telling entry: Entry) {
        AsyncCreations.lock.withLock { resumeWaiters(with: entry) }
    }

    /// Clears the creation and resumes every waiting task with `entry`; called holding
    /// `AsyncCreations.lock`.
    private func resumeWaiters(with entry: Entry) {
        creatorPath = nil
        for waiter in waiters {
            AsyncCreations.remove(waiters: waiter.waitingRegistrations, for: ObjectIdentifier(self))
            waiter.continuation.resume(returning: entry)
        }
        waiters = []
    }

    /// How many tasks wait for the creation in progress: for tests that must hold a waiter in place.
    var waitingTaskCount: Int {
        AsyncCreations.lock.withLock { waiters.count }
    }

    private func keptInstance() -> Service? {
        ownerLock.withReadLock { kept.current }
    }

    /// Keeps `made` as the scope says, unless the instances were released since `generation`.
    private func keep(_ made: Service, ifStillAt generation: Int, parent: AsyncPathNode?)
        throws(ResolutionError)
    {
        let object = try weakObject(for: made) { (parent?.path ?? []) + [description.service] }
        let replaced = ownerLock.withLock {
            kept.keep(made, weakObject: object, forVerification: recorder != nil, ifStillAt: generation)
        }
        withExtendedLifetime(replaced) {}
    }

    /// Runs the factory with a new node on the task's async path.
    private func make(resolvingFrom container: Container, parent: AsyncPathNode?)
        async throws(ResolutionError)
        -> Service
    {
        try AsyncResolution.checkCycle(self, from: parent)
        let node = AsyncPathNode(registration: self, parent: parent)
        defer { node.finish() }
        do {
            return try await AsyncResolution.$current.withValue(node) {
                try await factory(AsyncResolver(container: container))
            }
        } catch let error as ResolutionError {
            // Already carries its own path: pass it up unchanged, never wrapped twice.
            throw error
        } catch {
            throw ResolutionError(reason: .factoryFailed(error), requested: description, path: node.path)
        }
    }
}
