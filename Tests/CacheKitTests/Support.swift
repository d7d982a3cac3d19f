import CacheKit
import Foundation
import TestSupport

extension ManualClock {
    /// This clock as CacheKit reads time.
    var cacheClock: CacheClock {
        CacheClock { self.now }
    }
}

/// Collects cache events from any thread.
final class EventLog: @unchecked Sendable {
    // @unchecked Sendable: `events` is only touched while holding `lock`.
    private let lock = NSLock()
    private var events: [CacheEvent] = []

    func record(_ event: CacheEvent) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }

    var all: [CacheEvent] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }
}

struct Movie: Codable, Equatable, DataConvertible {
    let code: String
    let title: String
}

/// A value whose bytes never decode, to make a valid file with an unreadable payload.
struct Picky: DataConvertible, Equatable {
    let text: String
    func toData() throws -> Data { Data(text.utf8) }
    static func fromData(_ data: Data) throws -> Picky {
        throw DataConversionError(type: "Picky", reason: "it refuses every byte")
    }
}

extension DiskStorage {
    convenience init(
        in folder: TemporaryFolder, clock: ManualClock, countLimit: Int = .max,
        sizeLimit: Int = 150 * 1024 * 1024, events: EventLog? = nil
    ) throws {
        var onEvent: (@Sendable (CacheEvent) -> Void)?
        if let events {
            onEvent = { event in events.record(event) }
        }
        try self.init(
            configuration: .init(
                directory: folder.url, countLimit: countLimit, sizeLimit: sizeLimit, sweepInterval: nil,
                onEvent: onEvent),
            clock: clock.cacheClock)
    }
}

/// A cache of memory (no sweep) in front of disk in `folder`, both on `clock`, with its two tiers.
func makeTieredCache(in folder: TemporaryFolder, clock: ManualClock) throws -> (
    cache: Cache<String>, memory: MemoryStorage<String, String>, disk: DiskStorage<String>
) {
    let memory = MemoryStorage<String, String>(
        configuration: .init(sweepInterval: nil), clock: clock.cacheClock)
    let disk = try DiskStorage<String>(in: folder, clock: clock)
    return (Cache(memory: memory, disk: disk), memory, disk)
}
