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
        // here). The guides are written for SwiftPM's default settings, so this target keeps them;
        // Docs/ApplePlatforms.md's examples are AppCore's, compiled both ways.
        .target(
            name: "DocSnippets",
            dependencies: libraries + [.product(name: "Logging", package: "swift-log")]),
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
