import Foundation

extension DiskStorage {
    // MARK: - Inspecting

    /// The number of entries indexed, expired ones not yet removed included.
    public var count: Int {
        var events: [CacheEvent] = []
        defer { emit(events) }
        let seconds = clock.now().timeIntervalSince1970
        return state.withLock { state in
            _ = ensureIndex(&state, at: seconds, events: &events)
            return state.index?.count ?? 0
        }
    }

    /// The total size in bytes of the entries' files.
    public var totalSize: Int {
        var events: [CacheEvent] = []
        defer { emit(events) }
        let seconds = clock.now().timeIntervalSince1970
        return state.withLock { state in
            _ = ensureIndex(&state, at: seconds, events: &events)
            return state.totalSize
        }
    }

    /// Hits, misses, evictions and expirations so far.
    public var statistics: CacheStatistics {
        state.withLock { $0.statistics }
    }

    /// Runs `hook` in every store between writing its temporary file and renaming it into place, so a test
    /// can hold a store in that window.
    func setBeforeRename(_ hook: (@Sendable (String) -> Void)?) {
        hooks.withLock { $0.beforeRename = hook }
    }

    /// Runs `hook` in every read between finding its entry in the index and reading the file, so a test
    /// can hold a read in that window.
    func setBeforeReadingFile(_ hook: (@Sendable (String) -> Void)?) {
        hooks.withLock { $0.beforeReadingFile = hook }
    }

    /// How many indexes have been built from a listing of the directory and installed (for tests).
    var indexBuildCount: Int {
        state.withLock { $0.indexBuilds }
    }

    /// Whether the index is installed (for tests).
    var hasIndex: Bool {
        state.withLock { $0.index != nil }
    }

    /// Whether a background build of the index runs (for tests).
    var isBuildingInBackground: Bool {
        state.withLock { $0.buildingInBackground }
    }
}
