// swift-tools-version: 6.2
// A consumer of the package, written the way an app uses it, in no product of the root package.
// CI builds and tests it twice: with SwiftPM's default settings, and with Xcode 26's new-project
// defaults (APPCHECK_SETTINGS=xcode26: main-actor default isolation, nonisolated-nonsending by default,
// isolated conformances inferred), so an API change that breaks an app's code fails here first.
import PackageDescription

let xcode26Defaults: [SwiftSetting] = [
    .defaultIsolation(MainActor.self),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
]
let settings = Context.environment["APPCHECK_SETTINGS"] == "xcode26" ? xcode26Defaults : []

/// The package's four libraries, as an app target lists them.
let libraries: [Target.Dependency] = ["Binding", "CacheKit", "DIKit", "NetworkLayer"].map {
    .product(name: $0, package: "AppArchitectureKit")
}

let package = Package(
    name: "AppCheck",
    platforms: [.iOS(.v16), .macOS(.v13)],
    dependencies: [
        .package(name: "AppArchitectureKit", path: "../.."),
        // For the NetworkLayer guide's bridge to swift-log, compiled in DocSnippets.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
    ],
    targets: [
        .target(
            name: "AppCore",
            dependencies: libraries,
            swiftSettings: settings),
        // Every Swift block of the README and Docs/, compiled (.ci/check-doc-snippets.py finds them
        // here), with each setting: a block an app copies must compile in a new Xcode 26 project too.
        .target(
            name: "DocSnippets",
            dependencies: libraries + [.product(name: "Logging", package: "swift-log")],
            swiftSettings: settings),
        // Docs/Recipes.md's five recipes, each tested in RecipeTests.
        .target(name: "Recipes", dependencies: libraries, swiftSettings: settings),
        .testTarget(
            name: "RecipeTests",
            dependencies: [
                "Recipes",
                .product(name: "Binding", package: "AppArchitectureKit"),
                .product(name: "CacheKit", package: "AppArchitectureKit"),
                .product(name: "DIKit", package: "AppArchitectureKit"),
                .product(name: "NetworkLayer", package: "AppArchitectureKit"),
            ],
            swiftSettings: settings),
        .testTarget(
            name: "AppCoreTests",
            dependencies: [
                "AppCore",
                .product(name: "DIKitTesting", package: "AppArchitectureKit"),
                .product(name: "NetworkLayer", package: "AppArchitectureKit"),
                .product(name: "DIKit", package: "AppArchitectureKit"),
                .product(name: "Binding", package: "AppArchitectureKit"),
            ],
            swiftSettings: settings),
    ],
    swiftLanguageModes: [.v6]
)

// Stand-ins for Apple's frameworks, so the package's code for them and the docs' ways around their names
// are compiled here too (Docs/ApplePlatforms.md says what this does and does not show).
package.targets += [
    // Declares SwiftUI's clashing name, `Binding`; NameClash compiles Docs/Binding.md's way around it.
    .target(name: "SwiftUIStandIn"),
    .target(name: "NameClash", dependencies: libraries + ["SwiftUIStandIn"], swiftSettings: settings),
]
#if os(Linux)
    // Linux has no Combine: SwiftUIOnIOS16 compiles Binding's own ObservedValue.swift (a link to it)
    // outside Binding, against OpenCombine's ObservableObject and @Published (BINDING_STAND_IN).
    package.dependencies.append(.package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"))
    package.targets += [
        .target(
            name: "SwiftUIOnIOS16",
            dependencies: libraries + [.product(name: "OpenCombine", package: "OpenCombine")],
            swiftSettings: settings + [.define("BINDING_STAND_IN")])
    ]
    package.targets.first { $0.name == "AppCoreTests" }?.dependencies += [
        "SwiftUIOnIOS16", .product(name: "OpenCombine", package: "OpenCombine"),
    ]
#endif
