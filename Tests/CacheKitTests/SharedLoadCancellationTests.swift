import Foundation
import TestSupport
import Testing

@testable import CacheKit

@Suite("Cache: cancelling callers of a shared load")
struct SharedLoadCancellationTests {
    let folder: TemporaryFolder
    let clock = ManualClock()

    init() throws {
        folder = try TemporaryFolder.create("CacheKitTests")
    }

    func makeCache() throws -> Cache<String> {
        try makeTieredCache(in: folder, clock: clock).cache
    }

    /// A loader that waits for `release`, and records whether it saw cancellation.
    final class HeldLoader: Sendable {
        let release = AsyncGate()
        let started = AsyncGate()
        let outcome = EventLog()

        init() {
            started.open()  // counts entries without holding anyone
        }

        func load() async throws -> String {
            await started.enter()
            await withTaskCancellationHandler {
                await release.enter()
            } onCancel: {
                outcome.record(.miss(.memory, key: "cancelled"))
                release.open()
            }
            try Task.checkCancellation()
            return "poster"
        }

        var sawCancellation: Bool { !outcome.all.isEmpty }
    }

    @Test func aCancelledCallerLeavesAtOnceWhileTheLoadGoesOnForTheOther() async throws {
        // Given two callers sharing one held load
        let cache = try makeCache()
        let loader = HeldLoader()
        let first = Task { try await cache.value(forKey: "k") { try await loader.load() } }
        let second = Task { try await cache.value(forKey: "k") { try await loader.load() } }
        await waitWhile { cache.waitingForLoads < 2 }
        // When the first is cancelled
        first.cancel()
        let firstResult = await first.result
        // Then it leaves with CancellationError before the load finishes, and the load still runs
        #expect(throws: CancellationError.self) { try firstResult.get() }
        #expect(!loader.sawCancellation)
        loader.release.open()
        #expect(try await second.value == "poster")
        #expect(await cache.value(forKey: "k") == "poster")
    }

    @Test func theLoadIsCancelledWhenItsLastCallerLeaves() async throws {
        // Given two callers sharing one held load
        let cache = try makeCache()
        let loader = HeldLoader()
        let first = Task { try await cache.value(forKey: "k") { try await loader.load() } }
        let second = Task { try await cache.value(forKey: "k") { try await loader.load() } }
        await waitWhile { cache.waitingForLoads < 2 }
        await loader.started.waitUntilEntered()
        // When both are cancelled
        first.cancel()
        second.cancel()
        _ = await first.result
        _ = await second.result
        // Then the loader saw the cancellation, nothing was stored, and the next caller loads afresh
        await waitWhile { !loader.sawCancellation }
        await waitWhile { cache.loadsInFlight > 0 }
        #expect(await cache.value(forKey: "k") == nil)
        #expect(try await cache.value(forKey: "k") { "again" } == "again")
    }

    @Test func aCallerCancelledBeforeItAsksLoadsNothing() async throws {
        // Given
        let cache = try makeCache()
        let calls = EventLog()
        // When
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await cache.value(forKey: "k") {
                calls.record(.miss(.memory, key: "load"))
                return "v"
            }
        }
        let result = await task.result
        // Then
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(calls.all.isEmpty)
    }
}
