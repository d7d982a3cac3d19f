import Foundation

/// An executable of this package run as a child of the tests: a second process on one folder, as an
/// app's extension is to the app.
public struct ChildProcess: Sendable {
    /// How a child ended, with what it wrote.
    public struct Ending: Sendable {
        /// The exit status (or the signal's number, for a child killed by one).
        public let status: Int32
        /// What it wrote to its standard output.
        public let output: String
        /// What it wrote to its standard error.
        public let errors: String
    }

    /// The executable named `name`, built beside the running test binary.
    public let executable: URL

    /// Finds `name` in the build folder that holds the running tests.
    /// - Throws: `CocoaError(.fileNoSuchFile)` when it was not built.
    public init(_ name: String) throws {
        var build = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: build.appendingPathComponent(name).path),
            build.pathComponents.count > 1
        {
            build = build.deletingLastPathComponent()
        }
        let executable = build.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
        }
        self.executable = executable
    }

    /// Starts the child with `arguments`; its output and errors go to the pipes returned.
    public func start(_ arguments: [String]) throws -> (process: Process, output: Pipe, errors: Pipe) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return (process, output, errors)
    }

    /// Runs the children, one per argument list, all at once, and waits for every one to end.
    public func runTogether(_ argumentLists: [[String]]) throws -> [Ending] {
        let started = try argumentLists.map { try start($0) }
        return started.map { child in
            // Read to the end before waiting, so a child that writes much never blocks on a full pipe.
            let output = child.output.fileHandleForReading.readDataToEndOfFile()
            let errors = child.errors.fileHandleForReading.readDataToEndOfFile()
            child.process.waitUntilExit()
            return Ending(
                status: child.process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                errors: String(decoding: errors, as: UTF8.self))
        }
    }

    /// Runs the child with `arguments` and waits for it to end.
    public func run(_ arguments: [String]) throws -> Ending {
        try runTogether([arguments])[0]
    }
}
