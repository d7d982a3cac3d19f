// swift-tools-version: 6.0
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
        .library(name: "NetworkLayer", targets: ["NetworkLayer"]),
    ],
    targets: [
        .target(name: "Binding"),
        .target(name: "CacheKit"),
        .target(name: "DIKit"),
        .target(name: "NetworkLayer"),
        .testTarget(name: "BindingTests", dependencies: ["Binding"]),
        .testTarget(name: "CacheKitTests", dependencies: ["CacheKit"]),
        .testTarget(name: "DIKitTests", dependencies: ["DIKit"]),
        .testTarget(name: "NetworkLayerTests", dependencies: ["NetworkLayer"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
