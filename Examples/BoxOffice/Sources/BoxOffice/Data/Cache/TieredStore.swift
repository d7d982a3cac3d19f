import CacheKit
import Foundation

/// Where the poster provider keeps what it fetched: memory and disk when the cache folder is usable,
/// memory alone when it is not (a poster is optional; an unusable folder must not fail the command).
enum PosterStore<Value: DataConvertible & Sendable>: Sendable {
    case tiered(Cache<Value>)
    case memoryOnly(MemoryStorage<String, Value>)

    /// The cached value for `key`, or `load`'s, which is then kept; and where it came from.
    func value(forKey key: String, orLoad load: @escaping @Sendable () async throws -> Value) async throws
        -> (Value, PosterSource)
    {
        switch self {
        case .tiered(let cache):
            let found = try await cache.lookup(forKey: key, orLoad: load)
            let source: PosterSource =
                switch found.source {
                case .memory: .memory
                case .disk, .custom: .disk
                case .loader: .network
                }
            return (found.value, source)
        case .memoryOnly(let memory):
            if let value = memory.value(forKey: key) { return (value, .memory) }
            let value = try await load()
            memory.store(value, forKey: key)
            return (value, .network)
        }
    }

    /// The file holding `key`'s value, when there is one on disk: a regular file, not a link or pipe
    /// someone put under its name.
    func file(forKey key: String) -> URL? {
        guard case .tiered(let cache) = self, let url = cache.disk?.fileURL(forKey: key) else { return nil }
        let type = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
        return type == .typeRegular ? url : nil
    }

    /// A two-tier store in `directory`, or a memory-only one (and why) when the folder cannot be used.
    static func make(
        memory: MemoryStorage<String, Value>, disk configuration: DiskStorage<Value>.Configuration,
        clock: CacheClock
    ) -> (PosterStore, problem: String?) {
        do {
            let disk = try DiskStorage<Value>(configuration: configuration, clock: clock)
            return (.tiered(Cache(memory: memory, disk: disk)), nil)
        } catch {
            return (.memoryOnly(memory), "\(error)")
        }
    }
}
