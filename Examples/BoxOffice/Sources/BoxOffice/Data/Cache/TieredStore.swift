import CacheKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the data layer keeps what it fetched: memory and disk when the cache folder is usable, memory
/// alone when it is not (a cache is an optimisation; an unusable folder must not fail the command).
enum TieredStore<Value: DataConvertible & Sendable>: Sendable {
    case tiered(Cache<Value>, WriteFailures)
    case memoryOnly(MemoryStorage<String, Value>)

    /// The cached value for `key`, or `load`'s, which is then kept as long as `load` says; and where it
    /// came from on this run.
    func value(
        forKey key: String, orLoad load: @escaping @Sendable () async throws -> LoadedValue<Value>
    ) async throws -> (Value, PosterSource) {
        switch self {
        case .tiered(let cache, let failures):
            let found = try await cache.lookup(forKey: key, orLoad: load)
            let source: PosterSource =
                switch found.tier {
                case .memory: .memory
                case .disk: .disk
                case nil: .network
                }
            // A loaded value the disk did not take (the cache returns it all the same) is said once.
            if found.tier == nil, let disk = cache.disk, !disk.contains(key) {
                failures.report("\(disk.directoryURL.path) did not take a value; is the disk full?")
            }
            return (found.value, source)
        case .memoryOnly(let memory):
            if let value = memory.value(forKey: key) { return (value, .memory) }
            let loaded = try await load()
            memory.store(loaded.value, forKey: key, expiration: loaded.memoryExpiration)
            return (loaded.value, .network)
        }
    }

    /// The cached value for `key`, if one is kept, and where: memory or disk; nothing is loaded.
    func cached(forKey key: String) async -> (Value, PosterSource)? {
        switch self {
        case .tiered(let cache, _):
            guard let found = await cache.lookup(forKey: key) else { return nil }
            return (found.value, found.tier == .memory ? .memory : .disk)
        case .memoryOnly(let memory):
            return memory.value(forKey: key).map { ($0, .memory) }
        }
    }

    /// The cached value for `key`, or `load`'s, which is then kept for the tiers' default time.
    func value(forKey key: String, orLoad load: @escaping @Sendable () async throws -> Value) async throws
        -> (Value, PosterSource)
    {
        try await value(forKey: key) { LoadedValue(try await load(), expiration: nil) }
    }

    /// Keeps `value` for `key` until `expiration`, replacing what was there. A failed disk store leaves
    /// the value in memory only: a cache is an optimisation.
    func store(_ value: Value, forKey key: String, expiration: CacheExpiration) async {
        switch self {
        case .tiered(let cache, let failures):
            do {
                try await cache.store(value, forKey: key, expiration: expiration)
            } catch {
                failures.report("\(error)")
            }
        case .memoryOnly(let memory): memory.store(value, forKey: key, expiration: expiration)
        }
    }

    /// Forgets `key`'s value, in memory and on disk (best effort).
    func remove(forKey key: String) async {
        switch self {
        case .tiered(let cache, _): try? await cache.removeValue(forKey: key)
        case .memoryOnly(let memory): memory.removeValue(forKey: key)
        }
    }

    /// The file holding `key`'s value, when there is one on disk: a regular file, not a link or pipe
    /// someone put under its name.
    func file(forKey key: String) -> URL? {
        guard case .tiered(let cache, _) = self, let url = cache.disk?.fileURL(forKey: key) else {
            return nil
        }
        let type = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
        return type == .typeRegular ? url : nil
    }

    /// A two-tier store in `configuration`'s folder, or a memory-only one (and why) when the folder
    /// cannot be created, read or written: a folder that opens but refuses writes (read-only, or
    /// immutable) would otherwise save nothing, silently. Nor is a folder used when it, or a folder
    /// between it and `root`, is a symbolic link: the cache's files would land wherever it points.
    /// `failures` is told, later, if the disk stops taking values (it says so once, for every store
    /// that shares it).
    static func make(
        memory: MemoryStorage<String, Value>, disk configuration: DiskStorage<Value>.Configuration,
        below root: URL, clock: CacheClock, failures: WriteFailures
    ) -> (TieredStore, problem: String?) {
        // Before the storage is made: making it creates the folder and its parents, through any link.
        if let directory = configuration.directory, let link = firstLink(from: root, to: directory) {
            return (.memoryOnly(memory), "\(link) is a symbolic link, which the cache does not follow")
        }
        do {
            let disk = try DiskStorage<Value>(configuration: configuration, clock: clock)
            if let link = firstLink(from: root, to: disk.directoryURL) {
                return (.memoryOnly(memory), "\(link) is a symbolic link, which the cache does not follow")
            }
            if let problem = writeProblem(in: disk.directoryURL) { return (.memoryOnly(memory), problem) }
            return (.tiered(Cache(memory: memory, disk: disk), failures), nil)
        } catch {
            return (.memoryOnly(memory), "\(error)")
        }
    }

    /// The first path below `root` on the way to `folder` (`folder` included) that is a symbolic link,
    /// read without following any; `nil` when none is, or when `folder` is not below `root`.
    static func firstLink(from root: URL, to folder: URL) -> String? {
        let base = root.standardizedFileURL.pathComponents
        let parts = folder.standardizedFileURL.pathComponents
        guard parts.count > base.count, Array(parts.prefix(base.count)) == base else { return nil }
        var path = root.standardizedFileURL.path
        for part in parts.dropFirst(base.count) {
            path += path.hasSuffix("/") ? part : "/" + part
            var status = stat()
            if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK { return path }
        }
        return nil
    }

    /// Why `folder` cannot hold a cache, found by creating, reading back and removing a small file (a
    /// name the disk cache skips); `nil` when it can.
    static func writeProblem(in folder: URL) -> String? {
        let probe = folder.appendingPathComponent(".write-probe-\(UUID().uuidString)")
        let descriptor = open(probe.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            return "nothing can be written in \(folder.path): \(String(cString: strerror(errno)))"
        }
        // Bytes, not just a name: a full disk still creates an empty file, but refuses its blocks.
        let block = [UInt8](repeating: 0, count: 4096)
        let written = block.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let writeError = errno
        close(descriptor)
        if written != block.count {
            unlink(probe.path)
            let reason = written < 0 ? String(cString: strerror(writeError)) : "a short write"
            return "nothing can be written in \(folder.path): \(reason)"
        }
        let reader = open(probe.path, O_RDONLY | O_NOFOLLOW)
        let readProblem = reader < 0 ? String(cString: strerror(errno)) : nil
        if reader >= 0 { close(reader) }
        guard unlink(probe.path) == 0 else {
            return "files cannot be removed from \(folder.path): \(String(cString: strerror(errno)))"
        }
        if let readProblem { return "files cannot be read in \(folder.path): \(readProblem)" }
        return nil
    }
}

/// Says once, in words, that the disk stopped keeping values (a full disk, a folder gone read-only
/// or replaced): the values are still answered, from memory and the network.
final class WriteFailures: @unchecked Sendable {
    // @unchecked Sendable: `warned` is only read and written while holding `lock` (Mutex needs
    // iOS 18); `warn` is a let of a Sendable type, called after unlocking.
    private let lock = NSLock()
    private var warned = false
    private let warn: @Sendable (String) -> Void

    init(warn: @escaping @Sendable (String) -> Void) {
        self.warn = warn
    }

    func report(_ reason: String) {
        let first = lock.withLock {
            defer { warned = true }
            return !warned
        }
        if first { warn(reason) }
    }
}
