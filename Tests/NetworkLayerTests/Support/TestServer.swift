import Foundation
import TestSupport

/// The NetworkLayer tests' HTTP server (Fixtures/server.py) on 127.0.0.1.
typealias TestServer = FixtureServer

extension FixtureServer {
    /// The shared server; the first test to ask starts it, and it lives for the whole run.
    static let shared = Task { try FixtureServer(script: networkFixture) }
    /// A second server for the hostile tests (endless and compressed bodies sent as fast as a client
    /// reads), so their floods do not hold up the shared server's timed answers (a piece every 100 ms
    /// against a 1 s idle timeout).
    static let hostile = Task { try FixtureServer(script: networkFixture) }

    /// The fixture server's script, for a test that starts (and stops) a server of its own.
    static var fixtureScript: URL { networkFixture }

    private static var networkFixture: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/server.py")
    }
}
