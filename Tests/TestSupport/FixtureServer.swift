import Foundation

/// A Python fixture server on 127.0.0.1: it prints its port on its first line and exits when its stdin
/// closes (when this value is released, or this process ends), so no server outlives the tests.
public final class FixtureServer: @unchecked Sendable {
    // @unchecked Sendable: every property is set once in `init`; `process` and `input` are kept only so
    // the server and its stdin pipe live as long as this object.
    /// Where the server answers: `http://127.0.0.1:<port>`.
    public let baseURL: URL
    private let process: Process
    private let input: Pipe

    /// Starts `script` with `arguments`, and waits for its port.
    /// - Throws: ``Failure`` when it prints no port (python3 missing, a broken script).
    public init(script: URL, arguments: [String] = []) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(text), let url = URL(string: "http://127.0.0.1:\(port)") else {
            throw Failure(
                description:
                    "the fixture server at \(script.path) did not print its port (got \"\(text)\"); is python3 installed?"
            )
        }
        baseURL = url
        self.process = process
        self.input = input
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// A server that did not start.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with the script's path.
        public let description: String
    }
}
