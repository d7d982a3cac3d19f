import CacheKit
import Foundation
import NetworkLayer

/// Where the image provider's HTTP cache keeps posters: each image's bytes in a file of their own, so
/// the file opens as an image, and its headers (what revalidation needs) in another folder beside it,
/// both through CacheKit's `DiskStorage`. When the folder cannot be used, in memory for the run only.
///
/// Every key starts with the run's scope, so a run in another mode or against another server never
/// reads this one's posters. A write that fails is told to `failures` once: a poster that is not kept
/// is downloaded again next time, never a reason to fail.
final class PosterImageStore: HTTPCacheStore {
    private enum Storage: Sendable {
        case disk(heads: DiskStorage<Data>, bodies: DiskStorage<Data>)
        case memory(MemoryHTTPCacheStore)
    }

    private let storage: Storage
    private let scope: String
    private let failures: WriteFailures
    /// The key each image URL's answer was last read or stored under, so its file can be found.
    private let keys = KeysByURL()
    /// How many image bodies were written to disk (for tests).
    let bodyWrites = Recorder()

    /// A count that crosses tasks.
    final class Recorder: @unchecked Sendable {
        // @unchecked Sendable: `count` is only read and written while holding `lock`.
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    private init(storage: Storage, scope: String, failures: WriteFailures) {
        self.storage = storage
        self.scope = scope
        self.failures = failures
    }

    /// A store in `directory` (`images/` and `image-heads/` in it), or one in memory and why, when the
    /// folder is a link, cannot be created or refuses writes.
    static func make(
        directory: URL, below root: URL, clock: CacheClock, scope: String, failures: WriteFailures
    ) -> (PosterImageStore, problem: String?) {
        let bodiesFolder = directory.appendingPathComponent("images")
        let headsFolder = directory.appendingPathComponent("image-heads")
        let memory = {
            PosterImageStore(
                storage: .memory(MemoryHTTPCacheStore(byteLimit: 32 << 20)), scope: scope, failures: failures)
        }
        for folder in [bodiesFolder, headsFolder] {
            if let link = TieredStore<Data>.firstLink(from: root, to: folder) {
                return (memory(), "\(link) is a symbolic link, which the cache does not follow")
            }
        }
        do {
            let bodies = try DiskStorage<Data>(
                configuration: .init(directory: bodiesFolder, sizeLimit: 200 << 20, expiration: .days(30)),
                clock: clock)
            let heads = try DiskStorage<Data>(
                configuration: .init(directory: headsFolder, sizeLimit: 20 << 20, expiration: .days(30)),
                clock: clock)
            for folder in [bodies.directoryURL, heads.directoryURL] {
                if let problem = TieredStore<Data>.writeProblem(in: folder) { return (memory(), problem) }
            }
            return (
                PosterImageStore(
                    storage: .disk(heads: heads, bodies: bodies), scope: scope, failures: failures), nil
            )
        } catch {
            return (memory(), "\(error)")
        }
    }

    /// Whether answers are kept on disk (not in memory only).
    var isOnDisk: Bool {
        if case .disk = storage { return true }
        return false
    }

    func response(forKey key: String) -> CachedHTTPResponse? {
        switch storage {
        case .disk(let heads, let bodies):
            guard let head = heads.value(forKey: scoped(key)),
                var response = try? CachedHTTPResponse(serialized: head),
                let body = bodies.value(forKey: scoped(key))
            else { return nil }
            response.body = body
            keys.record(key)
            return response
        case .memory(let memory):
            return memory.response(forKey: scoped(key))
        }
    }

    func store(_ response: CachedHTTPResponse, forKey key: String) {
        switch storage {
        case .disk(let heads, let bodies):
            var head = response
            head.body = Data()
            do {
                // The body first: a head without its body is a miss, never a wrong image. A `304` stores
                // the same body again: only its head is written then.
                if bodies.value(forKey: scoped(key)) != response.body {
                    try bodies.store(response.body, forKey: scoped(key))
                    bodyWrites.add()
                }
                try heads.store(head.serialized(), forKey: scoped(key))
                keys.record(key)
            } catch {
                failures.report("\(error)")
            }
        case .memory(let memory):
            memory.store(response, forKey: scoped(key))
        }
    }

    func removeResponse(forKey key: String) {
        switch storage {
        case .disk(let heads, let bodies):
            try? heads.removeValue(forKey: scoped(key))
            try? bodies.removeValue(forKey: scoped(key))
        case .memory(let memory):
            memory.removeResponse(forKey: scoped(key))
        }
    }

    func removeAll() {
        switch storage {
        case .disk(let heads, let bodies):
            try? heads.removeAll()
            try? bodies.removeAll()
        case .memory(let memory):
            memory.removeAll()
        }
    }

    /// The file holding the image last read or stored for `url`, when it is on disk: a regular file, not
    /// a link or pipe someone put under its name.
    func file(forImageURL url: URL) -> URL? {
        guard case .disk(_, let bodies) = storage, let key = keys.key(forURL: url.absoluteString),
            bodies.contains(scoped(key))
        else { return nil }
        let file = bodies.fileURL(forKey: scoped(key))
        let type =
            (try? FileManager.default.attributesOfItem(atPath: file.path))?[.type] as? FileAttributeType
        return type == .typeRegular ? file : nil
    }

    private func scoped(_ key: String) -> String { "\(scope) \(key)" }
}

extension PosterSource {
    /// Where a poster's bytes came from, as the image provider's HTTP cache says: a fresh stored answer
    /// is `disk` (or `memory`, when the folder could not be used); one past its freshness is never
    /// labelled fresh.
    init(_ source: ResponseSource, onDisk: Bool) {
        switch source {
        case .network: self = .network
        case .cache(_, isFresh: false): self = .outOfDate
        case .cache: self = onDisk ? .disk : .memory
        case .revalidated: self = .revalidated
        case .staleAfterError(_, .unacceptableStatus(let failure))
        where (500...599).contains(failure.statusCode):
            self = .staleAfterHostFailure
        case .staleAfterError: self = .stale
        }
    }
}

/// The HTTP cache's key of each image URL, the newest 1,024. A key names no URL in clear (NetworkLayer
/// keeps only its origin and a digest), so the URL is the one the poster provider is asking for while
/// the key is read or stored: ``asking(for:_:)`` says it for the task.
final class KeysByURL: @unchecked Sendable {
    // @unchecked Sendable: `keys` is only read and written while holding `lock`.
    private let lock = NSLock()
    private var keys: [String: String] = [:]

    /// The image URL the current task asks the image provider for.
    @TaskLocal private static var asked: String?

    /// Runs `body` (the image provider's request for `url`), noting the keys it reads and stores as
    /// `url`'s.
    static func asking<Value>(for url: URL, _ body: () async throws -> Value) async rethrows -> Value {
        try await $asked.withValue(url.absoluteString) { try await body() }
    }

    func record(_ key: String) {
        guard let url = Self.asked, !key.hasPrefix("invalidated ") else { return }
        lock.withLock {
            if keys.count >= 1_024, keys[url] == nil { keys.removeAll() }
            keys[url] = key
        }
    }

    func key(forURL url: String) -> String? { lock.withLock { keys[url] } }
}
