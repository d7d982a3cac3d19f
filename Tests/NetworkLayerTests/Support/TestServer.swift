import Foundation

/// The fixture HTTP server (Fixtures/server.py) on 127.0.0.1, started once for the whole test run.
///
/// The server exits when its stdin closes, which happens when this process ends, so no server outlives
/// the tests.
final class TestServer: @unchecked Sendable {
    // @unchecked Sendable: `process` and `input` are set once in `init` and never mutated; they are
    // kept only so the server and its stdin pipe stay alive for the whole run.
    let baseURL: URL
    private let process: Process
    private let input: Pipe

    /// The shared server; the first test to ask starts it.
    static let shared = Task { try TestServer() }
    /// A second server for the hostile tests (endless and compressed bodies sent as fast as a client
    /// reads), so their floods do not hold up the shared server's timed answers (a piece every 100 ms
    /// against a 1 s idle timeout).
    static let hostile = Task { try TestServer() }

    private init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/server.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        let firstLine = Self.readLine(from: output.fileHandleForReading)
        guard let port = Int(firstLine.trimmingCharacters(in: .whitespacesAndNewlines)),
            let url = URL(string: "http://127.0.0.1:\(port)")
        else {
            throw ServerError(
                message:
                    "the fixture server at \(script.path) did not print its port (got \"\(firstLine)\"); is python3 installed?"
            )
        }
        self.baseURL = url
        self.process = process
        self.input = input
    }

    private static func readLine(from handle: FileHandle) -> String {
        var bytes = Data()
        while true {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    struct ServerError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
