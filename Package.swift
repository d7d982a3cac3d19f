// swift-tools-version: 6.1
// The minimum toolchain is Swift 6.1 (Xcode 16.3): SwiftPM refuses older ones with a clear message.
// The root package depends on no other package: only the toolchain (Foundation, Dispatch).
// Benchmarks live in the nested `Benchmarks/` package so this one stays dependency-free.
import PackageDescription

let package = Package(
    name: "AppArchitectureKit",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Binding", targets: ["Binding"]),
        .library(name: "CacheKit", targets: ["CacheKit"]),
        .library(name: "DIKit", targets: ["DIKit"]),
        // A Swift Testing trait for DIKit overrides; a product of its own so DIKit never imports Testing.
        .library(name: "DIKitTesting", targets: ["DIKitTesting"]),
        .library(name: "NetworkLayer", targets: ["NetworkLayer"]),
        .executable(name: "boxoffice", targets: ["BoxOfficeCLI"]),
        // The example's app core and terminal view, as a library only so the nested Fuzz/ package can
        // reach its parsers; apps have no reason to depend on it.
        .library(name: "BoxOfficeExample", targets: ["BoxOffice", "BoxOfficeTerminal"]),
    ],
    targets: [
        .target(name: "Binding"),
        // CacheKit and NetworkLayer read file metadata (fstat, lstat), and NetworkLayer reads the uptime
        // clock for its timeouts: their privacy manifests give Apple's reasons (Docs/ApplePlatforms.md).
        .target(name: "CacheKit", resources: [.copy("PrivacyInfo.xcprivacy")]),
        .target(name: "DIKit"),
        .target(name: "DIKitTesting", dependencies: ["DIKit"]),
        .target(name: "NetworkLayer", resources: [.copy("PrivacyInfo.xcprivacy")]),

        // The box office example: an app core wired from the four modules, and a thin terminal view.
        .target(
            name: "BoxOffice",
            dependencies: ["Binding", "CacheKit", "DIKit", "NetworkLayer"],
            path: "Examples/BoxOffice/Sources/BoxOffice",
            resources: [.copy("DemoData")]),
        .target(
            name: "BoxOfficeTerminal",
            dependencies: ["BoxOffice", "Binding", "DIKit"],
            path: "Examples/BoxOffice/Sources/BoxOfficeTerminal"),
        .executableTarget(
            name: "BoxOfficeCLI",
            dependencies: ["BoxOfficeTerminal"],
            path: "Examples/BoxOffice/Sources/boxoffice"),

        // Helpers shared by the test targets; in no product, so no client ever builds it.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "BindingTests", dependencies: ["Binding", "TestSupport"]),
        // A process the CacheKit tests start beside themselves on one folder (debug builds only).
        .executableTarget(
            name: "CacheKitTestProcess", dependencies: ["CacheKit"], path: "Tests/CacheKitTestProcess"),
        .testTarget(
            name: "CacheKitTests", dependencies: ["CacheKit", "CacheKitTestProcess", "TestSupport"]),
        .testTarget(name: "DIKitTests", dependencies: ["DIKit", "DIKitTesting", "TestSupport"]),
        // A process the NetworkLayer tests start and kill (debug builds only: it reaches internals).
        .executableTarget(
            name: "NetworkLayerTestProcess", dependencies: ["NetworkLayer"],
            path: "Tests/NetworkLayerTestProcess"),
        .testTarget(
            name: "NetworkLayerTests",
            dependencies: ["NetworkLayer", "NetworkLayerTestProcess", "TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "BoxOfficeTests",
            dependencies: ["BoxOffice", "Binding", "DIKit", "NetworkLayer", "TestSupport"]),
        .testTarget(
            name: "BoxOfficeCLITests",
            dependencies: ["BoxOfficeCLI", "BoxOfficeTerminal", "BoxOffice", "TestSupport"],
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
