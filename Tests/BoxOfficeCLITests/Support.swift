import Dispatch
import Foundation
import TestSupport

/// The project's folders, found from this file (Tests/BoxOfficeCLITests/Support.swift).
enum ProjectPaths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Tests/BoxOfficeCLITests/Fixtures")
    static let demoData = root.appendingPathComponent("Examples/BoxOffice/Sources/BoxOffice/DemoData")

    /// The `boxoffice` executable built beside this test bundle.
    static var binary: URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = bundle.deletingLastPathComponent()
        // On Apple platforms the test bundle is a directory tree; walk up to the build folder.
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("boxoffice").path),
            folder.pathComponents.count > 1
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("boxoffice")
    }
}

/// What a finished process printed and returned.
struct RunResult {
    let status: Int32
    let output: String
    let errors: String
}

/// Runs `boxoffice` with `arguments` and an environment cleared of the developer's API keys.
/// - Parameters:
///   - arguments: The arguments.
///   - extra: Variables to set (or override) for this run.
///   - standardOutputPath: A file to send standard output to instead of a pipe (`/dev/full`, say).
///   - standardErrorPath: The same for standard error.
///   - directory: The working folder; the test's own by default.
func runBoxOffice(
    _ arguments: [String], environment extra: [String: String] = [:], standardOutputPath: String? = nil,
    standardErrorPath: String? = nil, directory: URL? = nil
) async throws -> RunResult {
    try await offThePool {
        try runBoxOfficeBlocking(
            arguments, environment: extra, standardOutputPath: standardOutputPath,
            standardErrorPath: standardErrorPath, directory: directory)
    }
}

private func runBoxOfficeBlocking(
    _ arguments: [String], environment extra: [String: String], standardOutputPath: String?,
    standardErrorPath: String?, directory: URL?
) throws -> RunResult {
    let process = Process()
    process.executableURL = ProjectPaths.binary
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    var environment = ProcessInfo.processInfo.environment
    for name in [
        "KOBIS_API_KEY", "KAKAO_REST_API_KEY", "KOBIS_BASE_URL", "KAKAO_BASE_URL", "BOXOFFICE_CACHE_DIR",
        "BOXOFFICE_TIMEOUT_SECONDS", "COLUMNS",
    ] {
        environment.removeValue(forKey: name)
    }
    environment["NO_COLOR"] = "1"
    // A run that names no cache folder gets one of its own, removed afterwards: no test writes to the
    // developer's caches folder, or reads what another run left there.
    let ownCache = extra["BOXOFFICE_CACHE_DIR"] == nil ? TemporaryFolder() : nil
    if let ownCache { environment["BOXOFFICE_CACHE_DIR"] = ownCache.url.path }
    defer { withExtendedLifetime(ownCache) {} }
    process.environment = environment.merging(extra) { _, new in new }
    let output = Pipe()
    let errors = Pipe()
    if let standardOutputPath {
        process.standardOutput = FileHandle(forWritingAtPath: standardOutputPath)
        try output.fileHandleForWriting.close()
    } else {
        process.standardOutput = output
    }
    if let standardErrorPath {
        process.standardError = FileHandle(forWritingAtPath: standardErrorPath)
        try errors.fileHandleForWriting.close()
    } else {
        process.standardError = errors
    }
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return RunResult(
        status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
        errors: String(decoding: errorData, as: UTF8.self))
}

extension FixtureServer {
    /// Starts the fixture `script` off the cooperative pool.
    static func start(script: String, arguments: [String]) async throws -> FixtureServer {
        try await offThePool {
            try FixtureServer(
                script: ProjectPaths.fixtures.appendingPathComponent(script), arguments: arguments)
        }
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// One request the demo server received.
struct ServerRequest: Decodable {
    let host: String
    let path: String
    let headers: [String: String]
}

extension FixtureServer {
    /// Every request the server has received so far.
    func requests() async throws -> [ServerRequest] {
        let url = baseURL.appendingPathComponent("requests")
        let data = try await offThePool { try Data(contentsOf: url) }
        return try JSONDecoder().decode([ServerRequest].self, from: data)
    }
}
