import Benchmark
import CacheKit
import Foundation
import KeySequences

// CacheKit's tiers against NSCache, a lock-guarded Dictionary, and raw Data file I/O, doing the same work.

final class Box: @unchecked Sendable {
    // @unchecked Sendable: immutable after init.
    let value: Int
    init(_ value: Int) { self.value = value }
}

let smoke = ProcessInfo.processInfo.environment["BENCHMARK_SMOKE"] != nil
let sizes = smoke ? [1_000] : [1_000, 100_000, 1_000_000]


func temporaryFolder(_ name: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "CacheKitBenchmarks-\(name)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo,
        maxDuration: .seconds(smoke ? 1 : 2), maxIterations: smoke ? 1 : 500)

    // MARK: Memory: a get-or-store mix with eviction (Zipf keys, room for a tenth of them)
    let mixKeys = zipfKeys(count: 4_096, within: 10_000)
    Benchmark("Memory get-or-store mix, Zipf, a tenth held: MemoryStorage") { benchmark in
        let storage = MemoryStorage<Int, Box>(configuration: .init(countLimit: 1_000, sweepInterval: nil))
        let box = Box(0)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let key = mixKeys[index & 4_095]
            if storage.value(forKey: key) == nil { storage.store(box, forKey: key) }
        }
        benchmark.stopMeasurement()
    }
    Benchmark("Memory get-or-store mix, Zipf, a tenth held: locked Dictionary") { benchmark in
        let lock = NSLock()
        var dictionary: [Int: Box] = [:]
        let box = Box(0)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let key = mixKeys[index & 4_095]
            lock.lock()
            if dictionary[key] == nil { dictionary[key] = box }
            lock.unlock()
        }
        benchmark.stopMeasurement()
    }

    // MARK: Memory: hit, miss, store with eviction
    for size in sizes {
        let keys = scatteredKeys(count: 1_000, within: size)
        Benchmark("Memory hit, \(size) entries: MemoryStorage") { benchmark in
            let storage = MemoryStorage<Int, Box>(configuration: .init(sweepInterval: nil))
            for key in 0..<size { storage.store(Box(key), forKey: key) }
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations { blackHole(storage.value(forKey: keys[index])) }
            benchmark.stopMeasurement()
        }
        Benchmark("Memory hit, \(size) entries: NSCache") { benchmark in
            let cache = NSCache<NSNumber, Box>()
            for key in 0..<size { cache.setObject(Box(key), forKey: NSNumber(value: key)) }
            let numbers = keys.map { NSNumber(value: $0) }
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations { blackHole(cache.object(forKey: numbers[index])) }
            benchmark.stopMeasurement()
        }
        Benchmark("Memory hit, \(size) entries: locked Dictionary") { benchmark in
            let lock = NSLock()
            var dictionary: [Int: Box] = [:]
            for key in 0..<size { dictionary[key] = Box(key) }
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                lock.lock()
                let value = dictionary[keys[index]]
                lock.unlock()
                blackHole(value)
            }
            benchmark.stopMeasurement()
        }
        Benchmark("Memory miss, \(size) entries: MemoryStorage") { benchmark in
            let storage = MemoryStorage<Int, Box>(configuration: .init(sweepInterval: nil))
            for key in 0..<size { storage.store(Box(key), forKey: key) }
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations { blackHole(storage.value(forKey: -1 - index)) }
            benchmark.stopMeasurement()
        }
        Benchmark("Memory store with eviction, \(size) entries: MemoryStorage") { benchmark in
            let storage = MemoryStorage<Int, Box>(configuration: .init(countLimit: size, sweepInterval: nil))
            for key in 0..<size { storage.store(Box(key), forKey: key) }
            let box = Box(0)
            var next = size
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                storage.store(box, forKey: next)
                next += 1
            }
            benchmark.stopMeasurement()
        }
        Benchmark("Memory store with eviction, \(size) entries: NSCache") { benchmark in
            let cache = NSCache<NSNumber, Box>()
            cache.countLimit = size
            for key in 0..<size { cache.setObject(Box(key), forKey: NSNumber(value: key)) }
            let box = Box(0)
            var next = size
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                cache.setObject(box, forKey: NSNumber(value: next))
                next += 1
            }
            benchmark.stopMeasurement()
        }
    }

    // MARK: Disk: store and hit against raw atomic write and read
    let diskConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], scalingFactor: .one,
        maxDuration: .seconds(smoke ? 1 : 2), maxIterations: smoke ? 1 : 2_000)
    for (label, size) in [("4 KB", 4_096), ("1 MB", 1_048_576)] {
        let payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0) })
        Benchmark("Disk store \(label): DiskStorage", configuration: diskConfiguration) { benchmark in
            let folder = temporaryFolder("store")
            defer { try? FileManager.default.removeItem(at: folder) }
            let storage = try DiskStorage<Data>(configuration: .init(directory: folder, sizeLimit: .max))
            _ = storage.count
            benchmark.startMeasurement()
            try storage.store(payload, forKey: "poster-\(benchmark.currentIteration % 64)")
            benchmark.stopMeasurement()
        }
        Benchmark("Disk store \(label): Data.write atomic", configuration: diskConfiguration) { benchmark in
            let folder = temporaryFolder("raw-store")
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("poster-\(benchmark.currentIteration % 64)")
            benchmark.startMeasurement()
            try payload.write(to: file, options: .atomic)
            benchmark.stopMeasurement()
        }
        Benchmark("Disk hit \(label): DiskStorage", configuration: diskConfiguration) { benchmark in
            let folder = temporaryFolder("hit")
            defer { try? FileManager.default.removeItem(at: folder) }
            let storage = try DiskStorage<Data>(configuration: .init(directory: folder, sizeLimit: .max))
            try storage.store(payload, forKey: "poster")
            benchmark.startMeasurement()
            blackHole(storage.value(forKey: "poster", extendingExpiration: .none))
            benchmark.stopMeasurement()
        }
        // The same hit in a folder shared across processes: one `pread` of the journal's header more.
        Benchmark("Disk hit \(label), shared folder: DiskStorage", configuration: diskConfiguration) { benchmark in
            let folder = temporaryFolder("shared-hit")
            defer { try? FileManager.default.removeItem(at: folder) }
            let storage = try DiskStorage<Data>(
                configuration: .init(directory: folder, sizeLimit: .max, sharedAcrossProcesses: true))
            try storage.store(payload, forKey: "poster")
            benchmark.startMeasurement()
            blackHole(storage.value(forKey: "poster", extendingExpiration: .none))
            benchmark.stopMeasurement()
        }
        Benchmark("Disk store \(label), shared folder: DiskStorage", configuration: diskConfiguration) {
            benchmark in
            let folder = temporaryFolder("shared-store")
            defer { try? FileManager.default.removeItem(at: folder) }
            let storage = try DiskStorage<Data>(
                configuration: .init(directory: folder, sizeLimit: .max, sharedAcrossProcesses: true))
            _ = storage.count
            benchmark.startMeasurement()
            try storage.store(payload, forKey: "poster-\(benchmark.currentIteration % 64)")
            benchmark.stopMeasurement()
        }
        Benchmark("Disk hit \(label): Data(contentsOf:)", configuration: diskConfiguration) { benchmark in
            let folder = temporaryFolder("raw-hit")
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("poster")
            try payload.write(to: file)
            benchmark.startMeasurement()
            blackHole(try Data(contentsOf: file))
            benchmark.stopMeasurement()
        }
    }

    // MARK: Disk: a 4 KB hit while another thread stores 1 MB values (p99 against no writer)
    let underWrites = Benchmark.Configuration(
        metrics: [.wallClock], scalingFactor: .one, maxDuration: .seconds(smoke ? 1 : 5),
        maxIterations: smoke ? 1 : 5_000)
    // The writer stores into the storage the hits read, into another one in another folder (the
    // machine's own contention, no shared lock), or not at all.
    let writers: [(label: String, target: BackgroundWriter.Target?)] = [
        ("no writer", nil), ("another thread storing 1 MB values", .same),
        ("another thread storing 1 MB values in another storage", .other),
    ]
    for (label, target) in writers {
        let name = "Disk hit 4 KB, \(label): DiskStorage"
        Benchmark(
            name, configuration: underWrites,
            closure: { benchmark in
                let fixture = try HitFixture.shared()
                let key = "hit-\(benchmark.currentIteration % 64)"
                benchmark.startMeasurement()
                blackHole(fixture.storage.value(forKey: key, extendingExpiration: .none))
                benchmark.stopMeasurement()
            },
            setup: { if let target { try BackgroundWriter.shared.start(into: target) } },
            teardown: { BackgroundWriter.shared.stop() })
    }

    // MARK: Disk: per-store cost as the cache grows, and opening a large cache
    let small = Data(count: 64)
    for entries in smoke ? [1_000] : [1_000, 100_000] {
        Benchmark(
            "Disk store at \(entries) entries: DiskStorage",
            configuration: .init(
                metrics: [.wallClock], scalingFactor: .one, maxDuration: .seconds(smoke ? 1 : 3),
                maxIterations: smoke ? 1 : 2_000)
        ) { benchmark in
            let state = try DiskFixture.shared(entries: entries, payload: small)
            benchmark.startMeasurement()
            try state.storage.store(small, forKey: "new-\(benchmark.currentIteration)")
            benchmark.stopMeasurement()
        }
    }
    let openCount = smoke ? 1_000 : 10_000
    Benchmark(
        "Disk open \(openCount) entries: DiskStorage",
        configuration: .init(
            metrics: [.wallClock], scalingFactor: .one, maxDuration: .seconds(smoke ? 1 : 5),
            maxIterations: smoke ? 1 : 20)
    ) { benchmark in
        let folder = try DiskFixture.shared(entries: openCount, payload: small).folder
        benchmark.startMeasurement()
        let reopened = try DiskStorage<Data>(configuration: .init(directory: folder, sizeLimit: .max))
        blackHole(reopened.count)
        benchmark.stopMeasurement()
    }
    // The first read after opening: served from the entry's file while the index builds in the background.
    Benchmark(
        "Disk first hit after opening \(openCount) entries: DiskStorage",
        configuration: .init(
            metrics: [.wallClock], scalingFactor: .one, maxDuration: .seconds(smoke ? 1 : 5),
            maxIterations: smoke ? 1 : 20)
    ) { benchmark in
        let folder = try DiskFixture.shared(entries: openCount, payload: small).folder
        benchmark.startMeasurement()
        let reopened = try DiskStorage<Data>(configuration: .init(directory: folder, sizeLimit: .max))
        blackHole(reopened.value(forKey: "entry-\(benchmark.currentIteration % openCount)"))
        benchmark.stopMeasurement()
        // Let the background build finish before the next iteration opens the folder again.
        blackHole(reopened.count)
        Thread.sleep(forTimeInterval: 0.2)
    }
}

/// A disk cache pre-filled once per size and shared by the iterations that measure it.
final class DiskFixture: @unchecked Sendable {
    // @unchecked Sendable: created once under `lock`, then only read; the storage is itself thread-safe.
    let folder: URL
    let storage: DiskStorage<Data>

    private static let lock = NSLock()
    // nonisolated(unsafe): `fixtures` is only touched while holding `lock`.
    nonisolated(unsafe) private static var fixtures: [Int: DiskFixture] = [:]

    private init(entries: Int, payload: Data) throws {
        folder = temporaryFolder("fixture-\(entries)")
        storage = try DiskStorage<Data>(configuration: .init(directory: folder, sizeLimit: .max))
        for index in 0..<entries { try storage.store(payload, forKey: "entry-\(index)") }
    }

    static func shared(entries: Int, payload: Data) throws -> DiskFixture {
        lock.lock()
        defer { lock.unlock() }
        if let fixture = fixtures[entries] { return fixture }
        let fixture = try DiskFixture(entries: entries, payload: payload)
        fixtures[entries] = fixture
        return fixture
    }
}

/// 64 entries of 4 KB in one storage, read by the hit-under-writes benchmarks, and written by
/// ``BackgroundWriter`` under other keys.
final class HitFixture: @unchecked Sendable {
    // @unchecked Sendable: created once under `lock`, then only read; the storage is itself thread-safe.
    let storage: DiskStorage<Data>

    private static let lock = NSLock()
    // nonisolated(unsafe): `fixture` is only touched while holding `lock`.
    nonisolated(unsafe) private static var fixture: HitFixture?

    private init() throws {
        storage = try DiskStorage<Data>(
            configuration: .init(directory: temporaryFolder("hit-under-writes"), sizeLimit: 64 * 1_048_576))
        let payload = Data((0..<4_096).map { UInt8(truncatingIfNeeded: $0) })
        for index in 0..<64 { try storage.store(payload, forKey: "hit-\(index)") }
    }

    static func shared() throws -> HitFixture {
        lock.lock()
        defer { lock.unlock() }
        if let fixture { return fixture }
        let made = try HitFixture()
        fixture = made
        return made
    }
}

/// A thread storing 1 MB values into ``HitFixture``'s storage, under keys of its own, until stopped.
final class BackgroundWriter: @unchecked Sendable {
    // @unchecked Sendable: `running` is only touched while holding `lock`.
    static let shared = BackgroundWriter()
    private let lock = NSLock()
    private var running = false
    private let stopped = DispatchSemaphore(value: 0)

    private var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return running
    }

    /// Where the writer stores: the storage the hits read, or one of its own in another folder.
    enum Target { case same, other }

    func start(into target: Target) throws {
        let storage =
            switch target {
            case .same: try HitFixture.shared().storage
            case .other:
                try DiskStorage<Data>(
                    configuration: .init(directory: temporaryFolder("writer"), sizeLimit: 64 * 1_048_576))
            }
        lock.lock()
        running = true
        lock.unlock()
        let payload = Data((0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        Thread {
            var index = 0
            while self.isRunning {
                try? storage.store(payload, forKey: "large-\(index % 32)")
                index += 1
            }
            self.stopped.signal()
        }.start()
    }

    func stop() {
        lock.lock()
        let wasRunning = running
        running = false
        lock.unlock()
        if wasRunning { stopped.wait() }
    }
}
