import DIKit
import Testing

/// A Swift Testing trait that runs a test, or every test of a suite, with `Container.current`
/// bound to a child container holding overrides.
///
/// ```swift
/// @Test(.overriding { $0.register(BoxOfficeRepository.self) { _ in StubRepository() } })
/// func theChartShowsTheStub() async throws { … }
/// ```
/// It is `Container.withOverrides` around the test: the binding is task-local, so tests running in
/// parallel each see only their own overrides, and `Container.shared` is never changed.
public struct ContainerOverridesTrait: TestTrait, SuiteTrait, TestScoping {
    private let overrides: @Sendable (Container) -> Void
    /// Makes the container the overrides replace registrations of, once per test; `nil` for
    /// `Container.current`.
    private let base: (@MainActor @Sendable () -> Container)?

    init(
        base: (@MainActor @Sendable () -> Container)? = nil,
        overrides: @escaping @Sendable (Container) -> Void
    ) {
        self.base = base
        self.overrides = overrides
    }

    /// On a suite, the overrides apply to each of its tests (and those of nested suites).
    public var isRecursive: Bool { true }

    /// Runs `function` with the overrides in force; a suite gets no scope of its own, its tests do.
    /// - Parameters:
    ///   - test: The test or suite the trait is on.
    ///   - testCase: The test case about to run, or `nil` for a suite.
    ///   - function: The test, or the rest of the traits around it.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        // The app's container is made on the main actor, where a composition root often is (Xcode 26
        // makes it so by default); without one, the overrides go over `Container.current`.
        var container = Container.current
        if let base { container = await MainActor.run { base() } }
        try await Container.withOverrides(of: container, overrides) { try await function() }
    }
}

extension Trait where Self == ContainerOverridesTrait {
    /// Runs the test with `Container.current` bound to a child of the current container in which
    /// `overrides` registered their replacements.
    /// - Parameter overrides: Registers the replacements.
    /// - Returns: The trait.
    public static func overriding(_ overrides: @escaping @Sendable (Container) -> Void) -> Self {
        ContainerOverridesTrait(overrides: overrides)
    }

    /// Runs the test with `Container.current` bound to a child of the container `base` makes (your
    /// composition root), made afresh for each test, in which `overrides` registered their replacements.
    ///
    /// ```swift
    /// @Test(.overriding(of: { makeAppContainer() }) { $0.register(BoxOfficeRepository.self) { _ in StubRepository() } })
    /// func theAppsChartShowsTheStub() throws { … }
    /// ```
    /// Code resolving from `Container.current` (the property wrappers, by default) sees the overrides;
    /// an instance the app container shares (a singleton) keeps the dependencies it was made with.
    /// - Parameters:
    ///   - base: Makes the app's container, on the main actor (where a composition root often is);
    ///     called once per test, so tests share no state.
    ///   - overrides: Registers the replacements.
    /// - Returns: The trait.
    public static func overriding(
        of base: @escaping @MainActor @Sendable () -> Container,
        _ overrides: @escaping @Sendable (Container) -> Void
    ) -> Self {
        ContainerOverridesTrait(base: base, overrides: overrides)
    }
}
