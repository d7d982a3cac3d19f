// swift-tools-version: 6.0
// Coverage-guided fuzzing of everything that reads bytes from outside: the disk cache's entry files and
// index, the KOBIS and Kakao decoding with the example's mapping, HTTP fields (Retry-After, query
// encoding), streamed lines and server-sent events, Content-Range and the cURL rendering, the HTTP
// cache's Cache-Control, dates and stored answers, the command line, and the terminal sanitizer. A
// nested package, so the root package keeps no dependencies; libFuzzer ships with the toolchain. See Docs/Fuzzing.md, and run them all with
// Fuzz/run.sh.
import PackageDescription

let fuzzerFlags: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

func fuzzer(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: dependencies + ["FuzzSupport"], swiftSettings: fuzzerFlags)
}

let package = Package(
    name: "AppArchitectureKitFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "AppArchitectureKit", path: "..")],
    targets: [
        .target(name: "FuzzSupport"),
        fuzzer("EntryFileFuzzer", [.product(name: "CacheKit", package: "AppArchitectureKit")]),
        fuzzer("APIDecodingFuzzer", [.product(name: "BoxOfficeExample", package: "AppArchitectureKit")]),
        fuzzer("HTTPFieldsFuzzer", [.product(name: "NetworkLayer", package: "AppArchitectureKit")]),
        fuzzer("ArgumentsFuzzer", [.product(name: "BoxOfficeExample", package: "AppArchitectureKit")]),
        fuzzer("TerminalTextFuzzer", [.product(name: "BoxOfficeExample", package: "AppArchitectureKit")]),
        fuzzer("TransferParsingFuzzer", [.product(name: "NetworkLayer", package: "AppArchitectureKit")]),
        fuzzer("HTTPCacheFuzzer", [.product(name: "NetworkLayer", package: "AppArchitectureKit")]),
    ],
    swiftLanguageModes: [.v6]
)
