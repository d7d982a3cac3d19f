import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A revoked KOBIS key does not hide behind the cache: once a kept chart is past its freshness, KOBIS
/// is asked, and when it refuses the key the kept chart is shown with a note naming the refusal's code.
/// The runs' clock is moved with libfaketime (`.ci/run` installs it), so the app itself has no clock of
/// a test's.
@Suite("End to end: a revoked key under the cache")
struct RevokedKeyEndToEndTests {
    /// libfaketime's library, when installed.
    static let fakeTime = [
        "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
        "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
        "/usr/lib/faketime/libfaketime.so.1",
    ].first { FileManager.default.fileExists(atPath: $0) }

    /// Whether this process (and so the `boxoffice` built with it) runs under ThreadSanitizer, whose
    /// runtime interposes the clock calls libfaketime does: together the run hangs.
    static let isThreadSanitized: Bool = {
        guard let program = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(program, "__tsan_init") != nil
    }()

    /// The environment that makes a run believe it is `instant` (UTC), its timers left alone.
    static func at(_ instant: String) -> [String: String] {
        ["LD_PRELOAD": fakeTime ?? "", "FAKETIME": "@\(instant)", "FAKETIME_DONT_FAKE_MONOTONIC": "1"]
    }

    @Test(
        .enabled(if: fakeTime != nil, "needs libfaketime (apt-get install faketime; .ci/run installs it)"),
        .disabled(
            if: isThreadSanitized, "libfaketime and ThreadSanitizer both interpose the clock: the run hangs"))
    func aRefusedKeyIsNamedWhenAnOlderChartIsShown() async throws {
        // Given yesterday's chart (fresh for an hour) fetched live on 2026-11-21 at 19:00 in Korea
        let server = try await FixtureServer.start(
            script: "demo_server.py", arguments: [ProjectPaths.demoData.path])
        let cache = TemporaryFolder()
        let live = [
            "KOBIS_BASE_URL": server.baseURL.appendingPathComponent("kobis").absoluteString,
            "BOXOFFICE_CACHE_DIR": cache.url.path,
        ]
        let first = try await runBoxOffice(
            ["daily", "--date", "2026-11-20"],
            environment: live.merging(Self.at("2026-11-21 10:00:00")) { $1 }.merging([
                "KOBIS_API_KEY": "test-key"
            ]) { $1 })
        // When, two hours later, KOBIS refuses the key
        let second = try await runBoxOffice(
            ["daily", "--date", "2026-11-20"],
            environment: live.merging(Self.at("2026-11-21 12:00:00")) { $1 }.merging([
                "KOBIS_API_KEY": "invalid"
            ]) { $1 })
        // Then the kept chart is shown, and the note names the refusal and its code
        #expect(first.status == 0)
        #expect(second.status == 0)
        #expect(second.output == first.output)
        #expect(second.errors.contains("came from the cache"))
        #expect(second.errors.contains("KOBIS error 320010"), "\(second.errors)")
        let asked = try await server.requests().filter { $0.path.contains("searchDailyBoxOfficeList") }
        #expect(asked.count == 2)
    }
}
