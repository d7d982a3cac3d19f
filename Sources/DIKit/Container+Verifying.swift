extension Container {
    // MARK: - Verifying

    /// Resolves every registration without runtime arguments in a throwaway copy of this container
    /// (and its parents), reports every failure at once, and finds captive dependencies and overrides
    /// a parent's shared instance does not see (``HiddenOverride``).
    ///
    /// Call it in a test, or at launch in debug builds. It runs the real factories, in the copy: the
    /// real container's singletons are not made, but a factory's side effects happen. Async
    /// registrations are left to ``verifyAsync()``.
    /// - Returns: The captive dependencies and hidden overrides found, and the registrations skipped.
    /// - Throws: ``VerificationError`` listing every ``ResolutionError`` found, each with its path.
    @discardableResult
    public func verify() throws(VerificationError) -> VerificationReport {
        let plan = VerificationPlan(of: self, includingAsync: false)
        var failures: [ResolutionError] = []
        for (registration, owner) in plan.checked {
            do {
                try registration.verify(requester: plan.copy, owner: owner)
            } catch {
                failures.append(error)
            }
        }
        return try plan.recorder.report(failures: failures, skipped: plan.skipped) { key in
            // As resolving looks it up: the nearest container with either kind (sync or async) decides.
            (key.otherKind.map { plan.copy.lookup(key, orElse: $0) } ?? plan.copy.lookup(key)).map {
                ObjectIdentifier($0.0)
            }
        }
    }

    /// ``verify()``, and the async registrations too, awaiting their factories; main-actor factories are
    /// verified on the main actor.
    /// - Returns: The captive dependencies and hidden overrides found, and the registrations skipped.
    /// - Throws: ``VerificationError`` listing every ``ResolutionError`` found, each with its path.
    @discardableResult
    public func verifyAsync() async throws(VerificationError) -> VerificationReport {
        let plan = VerificationPlan(of: self, includingAsync: true)
        var failures: [ResolutionError] = []
        for (registration, owner) in plan.checked {
            do throws(ResolutionError) {
                if registration.description.kind == .mainActor, !MainActorCheck.isOnMainActor {
                    try await Self.onMainActor { () throws(ResolutionError) in
                        try registration.verify(requester: plan.copy, owner: owner)
                    }
                } else {
                    try await registration.verifyAsync(requester: plan.copy, owner: owner)
                }
            } catch {
                failures.append(error)
            }
        }
        return try plan.recorder.report(failures: failures, skipped: plan.skipped) { key in
            // As resolving looks it up: the nearest container with either kind (sync or async) decides.
            (key.otherKind.map { plan.copy.lookup(key, orElse: $0) } ?? plan.copy.lookup(key)).map {
                ObjectIdentifier($0.0)
            }
        }
    }

    /// What a verification resolves: a throwaway copy recording captives, the registrations to check in
    /// it with their owners, and those it cannot check.
    struct VerificationPlan {
        let recorder = VerificationRecorder()
        let copy: Container
        var checked: [(RegistrationBase, Container)] = []
        var skipped: [String] = []

        init(of container: Container, includingAsync: Bool) {
            copy = container.throwawayCopy(recorder: recorder)
            for (registration, owner) in copy.allRegistrations() {
                if registration.takesArguments || (!includingAsync && registration.description.kind == .async)
                {
                    skipped.append(registration.description.rendered)
                } else {
                    checked.append((registration, owner))
                }
            }
        }
    }

    func throwawayCopy(recorder: VerificationRecorder) -> Container {
        let copy = Container(parent: parent?.throwawayCopy(recorder: recorder))
        let fresh = lock.withReadLock {
            registrations.mapValues { $0.freshCopy(ownerLock: copy.lock, recorder: recorder) }
        }
        copy.lock.withLock { copy.registrations = fresh }
        return copy
    }

    /// Every registration visible from here (a child's override hides the parent's), with its owner,
    /// in a stable order.
    func allRegistrations() -> [(RegistrationBase, Container)] {
        var seen = Set<RegistrationKey>()
        var result: [(RegistrationBase, Container)] = []
        var container: Container? = self
        while let current = container {
            let own = current.lock.withReadLock { Array(current.registrations.values) }
            for registration in own where seen.insert(registration.key).inserted {
                result.append((registration, current))
            }
            container = current.parent
        }
        return result.sorted { $0.0.description.rendered < $1.0.description.rendered }
    }
}
