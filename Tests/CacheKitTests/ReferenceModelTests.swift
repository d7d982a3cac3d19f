import Foundation
import TestSupport
import Testing

@testable import CacheKit

/// An expiration per kind of tier, `nil` meaning the tier's default.
struct ModelExpirations: Sendable, Hashable {
    var memory: CacheExpiration?
    var disk: CacheExpiration?

    static func all(_ expiration: CacheExpiration?) -> ModelExpirations {
        ModelExpirations(memory: expiration, disk: expiration)
    }

    func loaded(_ value: String) -> LoadedValue<String> {
        LoadedValue(value, memoryExpiration: memory, diskExpiration: disk)
    }
}

/// One step of a generated sequence.
enum ModelOperation: CustomStringConvertible, Sendable {
    case store(key: String, value: String, expirations: ModelExpirations)
    case read(key: String)
    case remove(key: String)
    case removeAll
    case advance(seconds: Double)
    /// A restart: a new memory tier and a new disk storage over the same folder.
    case reopen
    /// `callers` tasks ask for `key` at once with a loader returning `value`.
    case concurrentLoad(key: String, callers: Int, value: String, expirations: ModelExpirations?)
    /// A store of `key` held while writing its file, and `then` called while it is held, each queued
    /// behind the one before (a `removeAll` between stores).
    case queuedBehindStore(key: String, held: String, then: [QueuedStep])
    /// A load of `key` whose loader is held while `key` is stored (`stored`) or removed (`nil`).
    case writeWhileLoading(key: String, loaded: String, stored: String?)
    /// A loading lookup of `key` that misses, and a store of `key` before it starts its load.
    case storeBetweenMissAndLoad(key: String, loaded: String, stored: String)

    var description: String {
        switch self {
        case .store(let key, let value, let expirations):
            "store(\(value) → \(key), memory \(Self.text(expirations.memory)), disk \(Self.text(expirations.disk)))"
        case .read(let key): "read(\(key))"
        case .remove(let key): "remove(\(key))"
        case .removeAll: "removeAll"
        case .advance(let seconds): "advance(\(seconds) s)"
        case .reopen: "reopen"
        case .concurrentLoad(let key, let callers, let value, let expirations):
            "load(\(key), \(callers) callers, → \(value)\(expirations.map { ", expiring \($0)" } ?? ""))"
        case .queuedBehindStore(let key, let held, let then):
            "store(\(held) → \(key)) held, then \(then.map(\.description).joined(separator: ", "))"
        case .writeWhileLoading(let key, let loaded, let stored):
            "load(\(key) → \(loaded)) held while \(stored.map { "store(\($0))" } ?? "remove")"
        case .storeBetweenMissAndLoad(let key, let loaded, let stored):
            "load(\(key) → \(loaded)), store(\(stored)) between its miss and its load"
        }
    }

    private static func text(_ expiration: CacheExpiration?) -> String {
        expiration.map { "\($0)" } ?? "default"
    }
}

/// The documented rules, as simply as they can be written: each tier holds a copy with a deadline and a
/// renewal span; a read renews the copy it is served from; a disk hit moves into memory with what it has
/// left; the last store or remove wins. Which entries the limits evict is the implementation's choice (the
/// model learns it from the `.evicted` events); that it never exceeds them, never evicts the entry being
/// stored, and never serves an expired or overwritten value is checked.
struct CacheModel {
    struct Copy: Equatable {
        var value: String
        var deadline: Double
        var renewal: Double
    }

    static let memoryLimit = 2
    static let diskLimit = 3
    static let memoryDefault = CacheExpiration.seconds(30)
    static let diskDefault = CacheExpiration.seconds(100)

    var memory: [String: Copy] = [:]
    var disk: [String: Copy] = [:]

    static func copy(_ value: String, _ expiration: CacheExpiration, now: Date) -> Copy {
        let stored = StoredExpiration(expiration, now: now)
        return Copy(value: value, deadline: stored.deadline, renewal: stored.duration)
    }

    static func renewed(_ copy: Copy, now: Double) -> Copy {
        guard copy.renewal > 0, copy.renewal.isFinite else { return copy }
        var renewed = copy
        renewed.deadline = now + copy.renewal
        return renewed
    }

    /// A store: each tier keeps a copy with its expiration (its default when `nil`); a copy expired on
    /// arrival is not kept, and removes the tier's older one.
    mutating func store(_ value: String, forKey key: String, expirations: ModelExpirations, now: Date) {
        let inMemory = Self.copy(value, expirations.memory ?? Self.memoryDefault, now: now)
        let onDisk = Self.copy(value, expirations.disk ?? Self.diskDefault, now: now)
        let seconds = now.timeIntervalSince1970
        memory[key] = inMemory.deadline > seconds ? inMemory : nil
        disk[key] = onDisk.deadline > seconds ? onDisk : nil
    }

    /// What a read of `key` at `now` returns, updating the model as the rules say.
    mutating func read(_ key: String, now: Double) -> (value: String, tier: CacheTier?)? {
        if let copy = memory[key] {
            if copy.deadline > now {
                memory[key] = Self.renewed(copy, now: now)
                return (copy.value, .memory)
            }
            memory[key] = nil
        }
        guard let copy = disk[key] else { return nil }
        guard copy.deadline > now else {
            disk[key] = nil
            return nil
        }
        let renewed = Self.renewed(copy, now: now)
        disk[key] = renewed
        memory[key] = renewed
        return (copy.value, .disk)
    }
}

/// Runs sequences against a real `Cache` (memory in front of disk, in a temporary folder, with an injected
/// clock) and the model side by side.
final class ModelRun: @unchecked Sendable {
    // @unchecked Sendable: used by one sequence at a time; the events it records go through `EventLog`.
    let folder: TemporaryFolder
    let clock = ManualClock()
    let events = EventLog()
    var memory: MemoryStorage<String, String>
    var disk: DiskStorage<String>
    var cache: Cache<String>
    var model = CacheModel()
    var seenEvents = 0

    init() throws {
        folder = try TemporaryFolder.create("CacheKitTests")
        (memory, disk, cache) = try Self.open(folder: folder, clock: clock, events: events)
    }

    static func open(folder: TemporaryFolder, clock: ManualClock, events: EventLog) throws -> (
        MemoryStorage<String, String>, DiskStorage<String>, Cache<String>
    ) {
        let memory = MemoryStorage<String, String>(
            configuration: .init(
                countLimit: CacheModel.memoryLimit, expiration: CacheModel.memoryDefault, sweepInterval: nil,
                onEvent: { events.record($0) }),
            clock: clock.cacheClock)
        let disk = try DiskStorage<String>(
            configuration: .init(
                directory: folder.url, countLimit: CacheModel.diskLimit, expiration: CacheModel.diskDefault,
                sweepInterval: nil, onEvent: { events.record($0) }),
            clock: clock.cacheClock)
        return (memory, disk, Cache(memory: memory, disk: disk))
    }

    /// Applies the evictions reported since the last call; fails if one evicted `stored`.
    func takeEvictions(protecting stored: String?) -> String? {
        let all = events.all
        defer { seenEvents = all.count }
        for event in all.dropFirst(seenEvents) {
            switch event {
            case .evicted(.memory, let key):
                if key == stored { return "memory evicted \(key), the entry its own store had just written" }
                model.memory[key] = nil
            case .evicted(.disk, let key):
                if key == stored { return "disk evicted \(key), the entry its own store had just written" }
                model.disk[key] = nil
            default:
                continue
            }
        }
        return nil
    }

    /// Runs one operation; returns a description of the first disagreement, if any.
    func apply(_ operation: ModelOperation) async -> String? {
        let now = clock.now
        switch operation {
        case .store(let key, let value, let expirations):
            do {
                if expirations.memory == expirations.disk {
                    try await cache.store(value, forKey: key, expiration: expirations.memory)
                } else {
                    try await cache.store(
                        value, forKey: key, memoryExpiration: expirations.memory,
                        diskExpiration: expirations.disk)
                }
            } catch {
                return "store threw \(error)"
            }
            model.store(value, forKey: key, expirations: expirations, now: now)
            if let failure = takeEvictions(protecting: key) { return failure }
        case .read(let key):
            let actual = await cache.lookup(forKey: key)
            let expected = model.read(key, now: now.timeIntervalSince1970)
            if actual?.value != expected?.value || actual?.tier != expected?.tier {
                return "read(\(key)) gave \(describe(actual)), the model says \(describe(expected))"
            }
            if let failure = takeEvictions(protecting: key) { return failure }
        case .remove(let key):
            do { try await cache.removeValue(forKey: key) } catch { return "remove threw \(error)" }
            model.memory[key] = nil
            model.disk[key] = nil
        case .removeAll:
            do { try await cache.removeAll() } catch { return "removeAll threw \(error)" }
            model.memory = [:]
            model.disk = [:]
        case .advance(let seconds):
            clock.advance(by: seconds)
        case .reopen:
            do {
                (memory, disk, cache) = try Self.open(folder: folder, clock: clock, events: events)
            } catch {
                return "reopen threw \(error)"
            }
            _ = takeEvictions(protecting: nil)
            model.memory = [:]
            // The sweep on open removes what has expired.
            model.disk = model.disk.filter { $0.value.deadline > now.timeIntervalSince1970 }
        case .concurrentLoad(let key, let callers, let value, let expirations):
            return await load(key, callers: callers, value: value, expirations: expirations, now: now)
        case .queuedBehindStore(let key, let held, let then):
            if let failure = await queuedBehindStore(key, held: held, then: then, now: now) { return failure }
        case .writeWhileLoading(let key, let loaded, let stored):
            if let failure = await writeWhileLoading(key, loaded: loaded, stored: stored, now: now) {
                return failure
            }
        case .storeBetweenMissAndLoad(let key, let loaded, let stored):
            if let failure = await storeBetweenMissAndLoad(key, loaded: loaded, stored: stored, now: now) {
                return failure
            }
        }
        return checkLimitsAndContents()
    }

    private func load(
        _ key: String, callers: Int, value: String, expirations: ModelExpirations?, now: Date
    ) async -> String? {
        let loads = EventLog()
        let eventsBefore = events.all.count
        let cache = cache
        let results = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<callers {
                group.addTask {
                    if let expirations {
                        return try? await cache.lookup(forKey: key) {
                            loads.record(.miss(.memory, key: key))
                            return expirations.loaded(value)
                        }.value
                    }
                    return try? await cache.value(forKey: key) {
                        loads.record(.miss(.memory, key: key))
                        return value
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let expected = model.read(key, now: now.timeIntervalSince1970)
        if let expected {
            if !loads.all.isEmpty {
                return "load(\(key)) ran the loader although \(expected.value) was cached"
            }
            if results.contains(where: { $0 != expected.value }) {
                return "load(\(key)) gave \(results), the model says \(expected.value)"
            }
        } else {
            // A value expired on arrival in both tiers is cached nowhere: callers that miss after the load
            // finished load again. Otherwise concurrent misses share one call.
            var probe = CacheModel()
            probe.store(value, forKey: key, expirations: expirations ?? .all(nil), now: now)
            let cachedNowhere = probe.memory[key] == nil && probe.disk[key] == nil
            let calls = loads.all.count
            if calls < 1 || calls > (cachedNowhere ? callers : 1) {
                return "load(\(key)) ran the loader \(calls) times for \(callers) callers"
            }
            if results.contains(where: { $0 != value }) {
                return "load(\(key)) gave \(results), not \(value)"
            }
            model.store(value, forKey: key, expirations: expirations ?? .all(nil), now: now)
            // When the loaded value was kept on disk but not in memory, a caller that missed memory after
            // the load stored it reads it from disk: a read, by the rules, which renews the disk copy and
            // moves it forward with its lifetime (unless memory does not keep it: expired on arrival).
            // Whether one did depends on timing; the disk's hit event and the cache's memory say.
            if model.memory[key] == nil, let onDisk = model.disk[key] {
                let renewed = CacheModel.renewed(onDisk, now: now.timeIntervalSince1970)
                if wasHit(.disk, key, since: eventsBefore) { model.disk[key] = renewed }
                if memory.contains(key) { model.memory[key] = renewed }
            } else if let inMemory = model.memory[key], wasHit(.memory, key, since: eventsBefore) {
                // A caller that missed after the load stored the value read it from memory: a read, which
                // renews the memory copy (to a shorter lifetime, for `.until(d, renewingBy:)`). Seen only
                // under load; the memory's hit event says whether it happened.
                model.memory[key] = CacheModel.renewed(inMemory, now: now.timeIntervalSince1970)
            }
        }
        if let failure = takeEvictions(protecting: expected == nil ? key : nil) { return failure }
        return checkLimitsAndContents()
    }

    /// Whether `tier` served `key` after the first `count` events.
    private func wasHit(_ tier: CacheTier, _ key: String, since count: Int) -> Bool {
        events.all.dropFirst(count).contains { event in
            if case .hit(tier, let hit) = event { return hit == key }
            return false
        }
    }

    func checkLimitsAndContents() -> String? {
        if memory.count > CacheModel.memoryLimit { return "memory holds \(memory.count) entries" }
        if disk.count > CacheModel.diskLimit { return "disk holds \(disk.count) entries" }
        if Set(memory.keys) != Set(model.memory.keys) {
            return "memory holds \(memory.keys.sorted()), the model \(model.memory.keys.sorted())"
        }
        if disk.count != model.disk.count {
            return "disk holds \(disk.count) entries, the model \(model.disk.count)"
        }
        return nil
    }

    func describe(_ found: CachedValue<String>?) -> String {
        found.map { "\($0.value) from \($0.tier.map { "\($0)" } ?? "the loader")" } ?? "nil"
    }

    func describe(_ found: (value: String, tier: CacheTier?)?) -> String {
        found.map { "\($0.value) from \($0.tier.map { "\($0)" } ?? "the loader")" } ?? "nil"
    }
}

@Suite("Cache against a reference model of its documented rules")
struct ReferenceModelTests {
    /// How many sequences to run: `CACHEKIT_MODEL_SEQUENCES` in the environment, 2,000 by default.
    static let sequences =
        ProcessInfo.processInfo.environment["CACHEKIT_MODEL_SEQUENCES"].flatMap { Int($0) } ?? 2_000
    /// The first seed: `CACHEKIT_MODEL_SEED` replays one failure (with `CACHEKIT_MODEL_SEQUENCES=1`).
    static let firstSeed =
        ProcessInfo.processInfo.environment["CACHEKIT_MODEL_SEED"].flatMap { UInt64($0) } ?? 1

    static let keys = ["a", "b", "c", "d"]

    static func generate(seed: UInt64, length: Int = 40) -> [ModelOperation] {
        var random = SeededGenerator(seed: seed)
        let start = 1_800_000_000.0  // ManualClock's first moment
        let expirations: [CacheExpiration?] = [
            nil, .seconds(10), .seconds(40), .seconds(0), .seconds(-5), .days(1), .never,
            .date(Date(timeIntervalSince1970: start + 60)),
            .until(Date(timeIntervalSince1970: start + 45), renewingBy: 20),
        ]
        var operations: [ModelOperation] = []
        for step in 0..<length {
            let key = keys.randomElement(using: &random) ?? "a"
            let first = expirations.randomElement(using: &random) ?? nil
            let second = expirations.randomElement(using: &random) ?? nil
            let callers = Int.random(in: 2...4, using: &random)
            switch Int.random(in: 0..<112, using: &random) {
            case 0..<22: operations.append(.store(key: key, value: "v\(step)", expirations: .all(first)))
            case 22..<30:
                operations.append(
                    .store(key: key, value: "v\(step)", expirations: .init(memory: first, disk: second)))
            case 30..<60: operations.append(.read(key: key))
            case 60..<67: operations.append(.remove(key: key))
            case 67..<70: operations.append(.removeAll)
            case 70..<85: operations.append(.advance(seconds: Double(Int.random(in: 1...35, using: &random))))
            case 85..<90: operations.append(.reopen)
            case 90..<95:
                operations.append(
                    .concurrentLoad(key: key, callers: callers, value: "L\(step)", expirations: nil))
            case 95..<100:
                let expirations = ModelExpirations(memory: first, disk: second)
                operations.append(
                    .concurrentLoad(key: key, callers: callers, value: "L\(step)", expirations: expirations))
            case 100..<104:
                let steps: [QueuedStep] = (0..<Int.random(in: 1...3, using: &random)).map { index in
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: .removeAll
                    case 1: .store("q\(step).\(index)")
                    default: .remove
                    }
                }
                operations.append(.queuedBehindStore(key: key, held: "h\(step)", then: steps))
            case 104..<108:
                let stored = Bool.random(using: &random) ? "s\(step)" : nil
                operations.append(.writeWhileLoading(key: key, loaded: "L\(step)", stored: stored))
            default:
                operations.append(.storeBetweenMissAndLoad(key: key, loaded: "L\(step)", stored: "s\(step)"))
            }
        }
        return operations
    }

    /// Runs `operations` on a fresh cache; returns the failure and the index of the step that failed.
    static func run(_ operations: [ModelOperation]) async -> (step: Int, failure: String)? {
        let run: ModelRun
        do { run = try ModelRun() } catch { return (0, "could not create the cache: \(error)") }
        for (index, operation) in operations.enumerated() {
            if let failure = await run.apply(operation) { return (index, failure) }
        }
        return nil
    }

    /// The kind of a failure, the words before its first space or parenthesis ("read", "memory"), so the
    /// shrinking keeps chasing the same disagreement.
    static func kind(of failure: String) -> Substring {
        failure.prefix { $0 != " " && $0 != "(" }
    }

    /// The shortest sequence it can find that still fails the same way, by dropping one operation at a time.
    static func shrink(_ operations: [ModelOperation], failing failure: String) async -> [ModelOperation] {
        var current = operations
        if let (step, _) = await run(current) { current = Array(current.prefix(step + 1)) }
        var progress = true
        while progress {
            progress = false
            for index in current.indices.reversed() {
                var candidate = current
                candidate.remove(at: index)
                if let found = await run(candidate), kind(of: found.failure) == kind(of: failure) {
                    current = candidate
                    progress = true
                }
            }
        }
        return current
    }

    @Test func generatedSequencesAgreeWithTheModel() async {
        // Given seeded sequences of stores, reads, removes, clock moves, restarts, concurrent loads, and
        // writes queued behind a held store or made while a load is pending
        let seeds = Self.firstSeed..<Self.firstSeed + UInt64(Self.sequences)
        // When each runs against a real cache and the model
        let failure = await withTaskGroup(of: (UInt64, String)?.self) { group in
            var pending = seeds.makeIterator()
            for _ in 0..<4 {
                guard let seed = pending.next() else { break }
                group.addTask { await Self.run(Self.generate(seed: seed)).map { (seed, $0.failure) } }
            }
            var first: (UInt64, String)?
            while let result = await group.next() {
                if let result, first == nil { first = result }
                if first == nil, let seed = pending.next() {
                    group.addTask { await Self.run(Self.generate(seed: seed)).map { (seed, $0.failure) } }
                }
            }
            return first
        }
        // Then every observable result matches
        guard let (seed, message) = failure else { return }
        let shortest = await Self.shrink(Self.generate(seed: seed), failing: message)
        Issue.record(
            """
            Seed \(seed) disagrees with the model: \(message)
            Shortest failing sequence (\(shortest.count) steps):
            \(shortest.map { "  \($0)" }.joined(separator: "\n"))
            Replay: CACHEKIT_MODEL_SEED=\(seed) CACHEKIT_MODEL_SEQUENCES=1 swift test --filter ReferenceModel
            """)
    }
}
