// swift-format-ignore-file
// Docs/Recipes.md quotes this file line for line: the disk store recipe 3's HTTP cache keeps its
// answers in.
import CacheKit
import NetworkLayer
import Foundation  //-

// An HTTP cache store on disk: each answer one file, through CacheKit's DiskStorage.
final class DiskHTTPCacheStore: HTTPCacheStore {
    private let disk: DiskStorage<Data>

    // Each answer is kept 31 days after it was last read, on the HTTP cache's clock: longer than the
    // 30 days of staleness recipe 3 accepts offline.
    init(directory: URL, clock: CacheClock = .system) throws {
        disk = try DiskStorage(
            configuration: .init(directory: directory, expiration: .days(31)), clock: clock)
    }

    func response(forKey key: String) -> CachedHTTPResponse? {
        disk.value(forKey: key).flatMap { try? CachedHTTPResponse(serialized: $0) }
    }

    func store(_ response: CachedHTTPResponse, forKey key: String) {
        try? disk.store(response.serialized(), forKey: key)
    }

    func removeResponse(forKey key: String) {
        try? disk.removeValue(forKey: key)
    }

    func removeAll() {
        try? disk.removeAll()
    }
}
