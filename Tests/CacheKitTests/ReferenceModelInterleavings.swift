import Dispatch
import Foundation
import TestSupport

@testable import CacheKit

/// A call queued behind a held store of the same key, in a generated sequence.
enum QueuedStep: CustomStringConvertible, Sendable {
    case removeAll
    case store(String)
    case remove

    var description: String {
        switch self {
        case .removeAll: "removeAll"
        case .store(let value): "store(\(value))"
        case .remove: "remove"
        }
    }
}

/// The ordering rules the model checks by holding one operation open: calls on a key, `removeAll`
/// included, take effect in the order they were called; a store or remove while a load is pending wins
/// over the loaded value; a store between a caller's miss and its load is what the caller gets.
extension ModelRun {
    /// Holds a store of `key` while it writes its file, calls `steps` one after another (each queued
    /// before the next is called), then lets them all run.
    func queuedBehindStore(_ key: String, held: String, then steps: [QueuedStep], now: Date) async -> String?
    {
        let cache = cache
        let release = DispatchSemaphore(value: 0)
        let renames = Locked(0)
        disk.setBeforeRename { _ in
            // Only the held store's rename waits; the queued ones run after it is released.
            guard
                renames.withLock({ count -> Bool in
                    count += 1
                    return count == 1
                })
            else { return }
            release.wait()
        }
        defer { disk.setBeforeRename(nil) }
        let first = Task { try await cache.store(held, forKey: key) }
        guard await eventually({ renames.withLock { $0 } > 0 }) else {
            release.signal()
            return "the held store never wrote its file"
        }
        var calls: [Task<Void, any Error>] = []
        let queuedBefore = cache.queuedOnLane(key) + cache.queuedForEveryLane
        for (index, step) in steps.enumerated() {
            calls.append(
                Task {
                    switch step {
                    case .removeAll: try await cache.removeAll()
                    case .store(let value): try await cache.store(value, forKey: key)
                    case .remove: try await cache.removeValue(forKey: key)
                    }
                })
            // Called in order: each waits in line before the next is called.
            let queued = await eventually {
                cache.queuedOnLane(key) + cache.queuedForEveryLane >= queuedBefore + index + 1
            }
            guard queued else {
                release.signal()
                return "\(step) did not wait behind the held store"
            }
        }
        release.signal()
        do {
            try await first.value
            for call in calls { try await call.value }
        } catch {
            return "a queued call threw \(error)"
        }
        model.store(held, forKey: key, expirations: .all(nil), now: now)
        _ = takeEvictions(protecting: nil)
        for step in steps {
            switch step {
            case .removeAll:
                model.memory = [:]
                model.disk = [:]
            case .store(let value): model.store(value, forKey: key, expirations: .all(nil), now: now)
            case .remove:
                model.memory[key] = nil
                model.disk[key] = nil
            }
        }
        return await readAgrees(key, now: now, after: "the queued calls")
    }

    /// Starts a load of `key` (not cached), holds its loader, stores `stored` (or removes the key when
    /// `nil`), then lets the load finish.
    func writeWhileLoading(_ key: String, loaded: String, stored: String?, now: Date) async -> String? {
        let cache = cache
        do { try await cache.removeValue(forKey: key) } catch { return "remove threw \(error)" }
        model.memory[key] = nil
        model.disk[key] = nil
        let gate = AsyncGate()
        let caller = Task {
            try await cache.value(forKey: key) {
                await gate.enter()
                return loaded
            }
        }
        await gate.waitUntilEntered()
        do {
            if let stored {
                try await cache.store(stored, forKey: key)
                model.store(stored, forKey: key, expirations: .all(nil), now: now)
                if let failure = takeEvictions(protecting: key) { return failure }
            } else {
                try await cache.removeValue(forKey: key)
            }
        } catch {
            return "the write during the load threw \(error)"
        }
        gate.open()
        guard let result = try? await caller.value, result == loaded else {
            return "the held load's caller did not get \(loaded)"
        }
        return await readAgrees(key, now: now, after: "the load")
    }

    /// A loading lookup of `key` (not cached) that misses, with `stored` stored before it joins a load:
    /// it looks again and gets the stored value; its loader never runs.
    func storeBetweenMissAndLoad(_ key: String, loaded: String, stored: String, now: Date) async -> String? {
        let cache = cache
        do { try await cache.removeValue(forKey: key) } catch { return "remove threw \(error)" }
        model.memory[key] = nil
        model.disk[key] = nil
        let once = Locked(false)
        cache.setBeforeJoiningLoad { missed in
            guard missed == key,
                once.withLock({ done in
                    defer { done = true }
                    return !done
                })
            else { return }
            try? await cache.store(stored, forKey: key)
        }
        defer { cache.setBeforeJoiningLoad(nil) }
        let loads = EventLog()
        let result: CachedValue<String>
        do {
            result = try await cache.lookup(forKey: key) {
                loads.record(.miss(.memory, key: key))
                return LoadedValue(loaded)
            }
        } catch {
            return "the lookup threw \(error)"
        }
        model.store(stored, forKey: key, expirations: .all(nil), now: now)
        if let failure = takeEvictions(protecting: key) { return failure }
        let expected = model.read(key, now: now.timeIntervalSince1970)
        if !loads.all.isEmpty { return "the loader ran although \(stored) was stored after the miss" }
        if result.value != expected?.value || result.tier != expected?.tier {
            return "the lookup gave \(describe(result)), the model says \(describe(expected))"
        }
        return nil
    }

    /// Reads `key` through the cache and the model; a description of a disagreement, if any.
    private func readAgrees(_ key: String, now: Date, after what: String) async -> String? {
        let actual = await cache.lookup(forKey: key)
        let expected = model.read(key, now: now.timeIntervalSince1970)
        if actual?.value != expected?.value || actual?.tier != expected?.tier {
            return
                "after \(what), read(\(key)) gave \(describe(actual)), the model says \(describe(expected))"
        }
        return takeEvictions(protecting: key)
    }
}
