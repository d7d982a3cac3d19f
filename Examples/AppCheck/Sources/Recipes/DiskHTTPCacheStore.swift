// swift-format-ignore-file
// Docs/NetworkLayer.md quotes this file line for line: the disk store recipe 3's HTTP cache keeps its
// answers in.
import CacheKit
import NetworkLayer
import Foundation  //-

// An HTTP cache store on disk: each answer one file, through CacheKit's DiskStorage.
final class DiskHTTPCacheStore: HTTPCacheStore {
    private let disk: DiskStorage<Data>

    init(directory: URL) throws {
        disk = try DiskStorage(directory: directory)
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
