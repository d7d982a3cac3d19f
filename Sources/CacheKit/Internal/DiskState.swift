// The disk tier's index and locked state, outside the generic `DiskStorage<Value>`: nothing in them
// depends on `Value`, and nested in it they were generic too, so every hit looked up the index's type
// metadata at run time (about 6,700 instructions of a 4 KB hit, Docs/Performance-Causes.md).

/// One entry of a disk tier's index.
struct DiskIndexEntry: Sendable {
    var size: Int
    var expiration: StoredExpiration
    /// Changes on every store, so work done outside the lock applies only to the file it read.
    var generation: UInt64
    /// The user's key, kept when events are reported (they name it); `nil` otherwise.
    var key: String?
}

/// A disk tier's state under its lock.
struct DiskState: Sendable {
    var index: ClockTable<String, DiskIndexEntry>?
    var totalSize = 0
    var statistics = CacheStatistics()
    var nextGeneration: UInt64 = 0
    /// Per file name with stores still writing: how many, and the newest generation whose store
    /// committed or whose remove (or eviction) happened meanwhile. A store renames its file into
    /// place only if its generation is above that floor, so of the stores that succeed the one
    /// called last wins, and a remove called after a store began wins over it.
    var writing: [String: (stores: Int, floor: UInt64)] = [:]
    /// Stores that began before the last `removeAll` never rename their file into place.
    var clearedBelow: UInt64 = 0
    /// How many indexes were built from a listing and installed; stays 1 however many stores.
    var indexBuilds = 0
    /// Entry files that could not be opened when the index was built; tried again by key.
    var unreadable: Set<String> = []
    /// Counts every store begun and renamed into place, every remove and `removeAll`: a read before the
    /// index, or a background build, that began at another count is out of date.
    var changes: UInt64 = 0
    /// Whether a background build of the index runs (started by the first read).
    var buildingInBackground = false
    /// Renewals by reads served from their file before the index existed: the renewed expiration
    /// (`nil` when the read did not change it), applied when the index is installed.
    var earlyRenewals: [String: StoredExpiration?] = [:]
    /// The entry files reads before the index are reading now, with how many read each: an index
    /// installed meanwhile keeps them, expired or not, for those reads to settle.
    var readingBeforeIndex: [String: Int] = [:]
    /// In a shared folder: how far into the change journal the index is, or `nil` before the first
    /// listing (and after one made while the journal's header was not readable).
    var journalSeen: SharedJournal.Mark?
    /// In a shared folder: whether this storage holds the journal's exclusive lock (under its own lock).
    var holdingJournal = false
}
