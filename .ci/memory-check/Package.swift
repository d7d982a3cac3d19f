// swift-tools-version: 6.1
// Measures, in a process of its own, how much memory one NetworkLayer request takes against a hostile
// server (.ci/check-memory.sh starts the fixture server and reads the peak resident size).
import PackageDescription

let package = Package(
    name: "memory-check",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "AppArchitectureKit", path: "../..")],
    targets: [
        .executableTarget(
            name: "memory-check",
            dependencies: [.product(name: "NetworkLayer", package: "AppArchitectureKit")])
    ],
    swiftLanguageModes: [.v6]
)
