import CacheKit
import Foundation
import KeySequences

// CacheKit's memory tier beside a lock-guarded Dictionary and NSCache, at three sizes.

final class Box: @unchecked Sendable {
    // @unchecked Sendable: immutable after init.
    let value: Int
    init(_ value: Int) { self.value = value }
}

/// The sizes measured: 1,000 only in a smoke run (CI), where filling a million entries under callgrind
/// would take minutes.
let sizes =
    ProcessInfo.processInfo.environment["INSTRUCTION_COUNTS_SMOKE"] == nil
    ? [1_000, 100_000, 1_000_000] : [1_000]

func cacheKitWorkloads() -> [Workload] {
    mixWorkloads() + sizes.flatMap { size -> [Workload] in
        let keys = scatteredKeys(count: 4_096, within: size)
        return [
            Workload(name: "memory-hit-\(size)-cachekit") {
                let storage = MemoryStorage<Int, Box>(configuration: .init(sweepInterval: nil))
                for key in 0..<size { storage.store(Box(key), forKey: key) }
                return { count in
                    for index in 0..<count { blackHole(storage.value(forKey: keys[index & 4_095])) }
                }
            },
            Workload(name: "memory-hit-\(size)-dictionary") {
                let lock = NSLock()
                var dictionary: [Int: Box] = [:]
                for key in 0..<size { dictionary[key] = Box(key) }
                return { count in
                    for index in 0..<count {
                        lock.lock()
                        let value = dictionary[keys[index & 4_095]]
                        lock.unlock()
                        blackHole(value)
                    }
                }
            },
            Workload(name: "memory-hit-\(size)-nscache") {
                let cache = NSCache<NSNumber, Box>()
                for key in 0..<size { cache.setObject(Box(key), forKey: NSNumber(value: key)) }
                let numbers = keys.map { NSNumber(value: $0) }
                return { count in
                    for index in 0..<count { blackHole(cache.object(forKey: numbers[index & 4_095])) }
                }
            },
            // A full tier taking a new key: each store evicts one entry.
            Workload(name: "store-eviction-\(size)-cachekit") {
                let storage = MemoryStorage<Int, Box>(
                    configuration: .init(countLimit: size, sweepInterval: nil))
                for key in 0..<size { storage.store(Box(key), forKey: key) }
                let box = Box(0)
                return { count in
                    for index in 0..<count { storage.store(box, forKey: size + index) }
                }
            },
            Workload(name: "store-eviction-\(size)-nscache") {
                let cache = NSCache<NSNumber, Box>()
                cache.countLimit = size
                for key in 0..<size { cache.setObject(Box(key), forKey: NSNumber(value: key)) }
                let box = Box(0)
                return { count in
                    for index in 0..<count { cache.setObject(box, forKey: NSNumber(value: size + index)) }
                }
            },
        ]
    }
}

/// A get-or-store mix with eviction: keys drawn by Zipf's law from 10,000, into a tier that holds a tenth
/// of them; a miss stores the key. Beside a locked `Dictionary` doing the same without a limit.
func mixWorkloads() -> [Workload] {
    let box = Box(0)
    return [
        Workload(name: "zipf-mix-cachekit") {
            let keys = zipfKeys(count: 4_096, within: 10_000)
            let storage = MemoryStorage<Int, Box>(configuration: .init(countLimit: 1_000, sweepInterval: nil))
            return { count in
                for index in 0..<count {
                    let key = keys[index & 4_095]
                    if storage.value(forKey: key) == nil { storage.store(box, forKey: key) }
                }
            }
        },
        Workload(name: "zipf-mix-dictionary") {
            let keys = zipfKeys(count: 4_096, within: 10_000)
            let lock = NSLock()
            var dictionary: [Int: Box] = [:]
            return { count in
                for index in 0..<count {
                    let key = keys[index & 4_095]
                    lock.lock()
                    if dictionary[key] == nil { dictionary[key] = box }
                    lock.unlock()
                }
            }
        },
    ]
}
