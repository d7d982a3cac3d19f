extension Container {
    /// Runs `operation` with ``current`` bound to a child of the current container in which
    /// `overrides` registered their replacements.
    ///
    /// The binding is task-local: tests running in parallel each see their own overrides, and nothing
    /// leaks into ``shared``.
    /// ```swift
    /// try await Container.withOverrides {
    ///     $0.register(BoxOfficeRepository.self) { _ in StubRepository() }
    /// } operation: {
    ///     let screen = DailyBoxOfficeScreen()   // its @Inject properties see the stub
    /// }
    /// ```
    /// - Parameters:
    ///   - overrides: Registers the replacements in the child container.
    ///   - isolation: The caller's actor, inherited so `operation` runs where the caller does; leave it
    ///     out.
    ///   - operation: The work that should see them.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public static func withOverrides<Result>(
        _ overrides: (Container) -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        try await withOverrides(of: current, overrides, isolation: isolation, operation: operation)
    }

    /// Runs `operation` with ``current`` bound to a child of `base`, the container your composition root
    /// builds, in which `overrides` registered their replacements: a test of an app that makes its own
    /// `Container()` overrides that graph, not ``shared``.
    ///
    /// ```swift
    /// try await Container.withOverrides(of: makeAppContainer()) {
    ///     $0.register(BoxOfficeRepository.self) { _ in StubRepository() }
    /// } operation: {
    ///     let repository: any BoxOfficeRepository = try Container.current.resolve()   // the stub
    /// }
    /// ```
    /// Code that resolves from ``current`` (the property wrappers, by default) sees the overrides; code
    /// that holds `base` and resolves from it directly does not. An override does not reach an instance
    /// `base` shares (a singleton, a custom-scope instance) either: that instance's dependencies are
    /// resolved in `base`. Override the shared service itself.
    /// - Parameters:
    ///   - base: The container whose registrations the overrides replace.
    ///   - overrides: Registers the replacements in the child container.
    ///   - isolation: The caller's actor, inherited so `operation` runs where the caller does; leave it
    ///     out.
    ///   - operation: The work that should see them.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public static func withOverrides<Result>(
        of base: Container,
        _ overrides: (Container) -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let child = base.makeChild()
        overrides(child)
        return try await $current.withValue(child, operation: operation, isolation: isolation)
    }

    /// The synchronous form of ``withOverrides(of:_:isolation:operation:)``.
    /// - Parameters:
    ///   - base: The container whose registrations the overrides replace.
    ///   - overrides: Registers the replacements in the child container.
    ///   - operation: The work that should see them.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public static func withOverrides<Result>(
        of base: Container,
        _ overrides: (Container) -> Void,
        operation: () throws -> Result
    ) rethrows -> Result {
        let child = base.makeChild()
        overrides(child)
        return try $current.withValue(child, operation: operation)
    }

    /// The synchronous form of ``withOverrides(_:isolation:operation:)``.
    /// - Parameters:
    ///   - overrides: Registers the replacements in the child container.
    ///   - operation: The work that should see them.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public static func withOverrides<Result>(
        _ overrides: (Container) -> Void,
        operation: () throws -> Result
    ) rethrows -> Result {
        try withOverrides(of: current, overrides, operation: operation)
    }
}
