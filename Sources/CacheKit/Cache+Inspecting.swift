import Foundation

extension Cache {
    // MARK: - Inspecting

    /// The number of entries in the disk tier (stores write every entry there, within its limits; memory
    /// holds a recent subset); 0 without a disk tier.
    public var count: Int {
        get async {
            guard let disk else { return 0 }
            return await disk.onDiskQueue { disk.count }
        }
    }

    /// The total size in bytes of the disk entries; 0 without a disk tier.
    public var totalSize: Int {
        get async {
            guard let disk else { return 0 }
            return await disk.onDiskQueue { disk.totalSize }
        }
    }

    /// The memory and disk tiers' hits, misses, evictions and expirations.
    public var statistics: [CacheTier: CacheStatistics] {
        var statistics: [CacheTier: CacheStatistics] = [:]
        if let memory { statistics[.memory] = memory.statistics }
        if let disk { statistics[.disk] = disk.statistics }
        return statistics
    }
}
