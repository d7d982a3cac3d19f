// swift-tools-version: 6.1
// The benchmarks: every module measured beside its peers in the same run.
// A separate package so the root package stays free of dependencies.
// Run: swift package --package-path Benchmarks benchmark
import PackageDescription

let benchmarkDependencies: [Target.Dependency] = [.product(name: "Benchmark", package: "benchmark")]
let benchmarkPlugins: [Target.PluginUsage] = [.plugin(name: "BenchmarkPlugin", package: "benchmark")]

let package = Package(
    name: "AppArchitectureKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "AppArchitectureKit", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "DIKitBenchmarks",
            dependencies: benchmarkDependencies + [
                "AppGraph",
                .product(name: "DIKit", package: "AppArchitectureKit"),
                .product(name: "Swinject", package: "Swinject"),
            ],
            path: "Benchmarks/DIKitBenchmarks",
            plugins: benchmarkPlugins),
        .executableTarget(
            name: "BindingBenchmarks",
            dependencies: benchmarkDependencies + [
                .product(name: "Binding", package: "AppArchitectureKit"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            path: "Benchmarks/BindingBenchmarks",
            plugins: benchmarkPlugins),
        .executableTarget(
            name: "CacheKitBenchmarks",
            dependencies: benchmarkDependencies + [
                "KeySequences", .product(name: "CacheKit", package: "AppArchitectureKit"),
            ],
            path: "Benchmarks/CacheKitBenchmarks",
            plugins: benchmarkPlugins),
        .executableTarget(
            name: "NetworkLayerBenchmarks",
            dependencies: benchmarkDependencies + [
                .product(name: "NetworkLayer", package: "AppArchitectureKit"),
                // The HTTP cache's fresh hit is compared with a CacheKit memory hit of the same body.
                .product(name: "CacheKit", package: "AppArchitectureKit"),
            ],
            path: "Benchmarks/NetworkLayerBenchmarks",
            plugins: benchmarkPlugins),
        // Not a benchmark of the plugin's: one workload per run, counted by callgrind
        // (Benchmarks/Scripts/instructions.py). Kept out of a folder named Benchmarks, where the plugin
        // takes every executable for a benchmark to run.
        // The app-shaped DIKit graph, built the same way by the wall-clock benchmarks and the instruction
        // counts.
        .target(
            name: "AppGraph",
            dependencies: [
                .product(name: "DIKit", package: "AppArchitectureKit"),
                .product(name: "Swinject", package: "Swinject"),
            ],
            path: "Tools/AppGraph"),
        // The key sequences the CacheKit rows visit, the same in both harnesses.
        .target(name: "KeySequences", path: "Tools/KeySequences"),
        .executableTarget(
            name: "InstructionCounts",
            dependencies: [
                "AppGraph",
                "KeySequences",
                .product(name: "CacheKit", package: "AppArchitectureKit"),
                .product(name: "DIKit", package: "AppArchitectureKit"),
                .product(name: "Binding", package: "AppArchitectureKit"),
                .product(name: "NetworkLayer", package: "AppArchitectureKit"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            path: "Tools/InstructionCounts"),
    ],
    swiftLanguageModes: [.v6]
)
