import Foundation

extension DiskStorage {
    /// How a ``DiskStorage`` behaves. Every property has a default.
    public struct Configuration: Sendable {
        /// The cache's name: the last folder of the default location when ``directory`` is `nil`.
        /// `"CacheKit"` by default.
        public var name: String
        /// The folder holding the entries, created if needed, and again if it is deleted while the
        /// storage is in use. `nil` (the default) means `<caches>/<app>/CacheKit/<name>`: the platform
        /// caches directory (`~/Library/Caches` on Apple platforms, `$XDG_CACHE_HOME` or `~/.cache` on
        /// Linux), then the main bundle's identifier (or, without one, the process's name), so apps and
        /// their extensions never share a folder by accident.
        public var directory: URL?
        /// The most entries kept. `Int.max` (no limit) by default; a negative value is 0.
        public var countLimit: Int
        /// The most bytes kept, counting whole files. 150 MB by default; a negative value is 0.
        public var sizeLimit: Int
        /// The expiration of an entry stored without one. 7 days by default.
        public var expiration: CacheExpiration
        /// When a limit is exceeded, least recently used entries are removed until the count and size
        /// are at most this fraction of their limits, so the next stores do not trim again at once.
        /// 0.8 by default; clamped to 0...1 when the storage is created (NaN means the default).
        public var trimRatio: Double
        /// How often expired entries are removed without being read; `nil` disables the periodic sweep
        /// (the sweep when the index is first built still runs). 600 seconds by default. An interval
        /// shorter than 1 ms is 1 ms; NaN, infinity or more than a year disables it.
        public var sweepInterval: TimeInterval?
        /// Called after each ``CacheEvent``, outside the storage's lock. `nil` by default.
        public var onEvent: (@Sendable (CacheEvent) -> Void)?
        /// The data protection of the folder, which the entry files created in it inherit, on iOS, tvOS,
        /// watchOS and visionOS; ignored on macOS and Linux. `nil` (the default) keeps the app's default
        /// (`completeUntilFirstUserAuthentication` unless the app's entitlement says otherwise). An entry
        /// that cannot be opened while the device is locked is a miss until it can, never removed.
        public var fileProtection: FileProtectionType?
        /// Whether more than one process opens this folder: an app and its extensions in an app-group
        /// container. `false` by default. When `true`, each storage follows the others' stores, removes
        /// and `removeAll` through the folder's change journal, and ``countLimit`` and ``sizeLimit`` hold
        /// for the folder as a whole. Every process that opens the folder must say so. See "App and
        /// extensions" in the CacheKit guide.
        public var sharedAcrossProcesses: Bool

        /// Creates a configuration.
        /// - Parameters:
        ///   - name: The folder name under the caches directory; `"CacheKit"` by default.
        ///   - directory: An explicit folder; `nil` (the default) for the caches directory plus `name`.
        ///   - countLimit: The most entries; no limit by default.
        ///   - sizeLimit: The most bytes; 150 MB by default.
        ///   - expiration: The default expiration; 7 days by default.
        ///   - trimRatio: The fraction of each limit to trim down to; 0.8 by default.
        ///   - sweepInterval: Seconds between sweeps of expired entries, or `nil`; 600 by default.
        ///   - onEvent: A hook for logging or metrics; `nil` by default.
        ///   - fileProtection: The folder's data protection on iOS, tvOS, watchOS and visionOS; `nil` by
        ///     default.
        ///   - sharedAcrossProcesses: Whether other processes open the folder too; `false` by default.
        public init(
            name: String = "CacheKit",
            directory: URL? = nil,
            countLimit: Int = .max,
            sizeLimit: Int = 150 * 1024 * 1024,
            expiration: CacheExpiration = .days(7),
            trimRatio: Double = 0.8,
            sweepInterval: TimeInterval? = 600,
            onEvent: (@Sendable (CacheEvent) -> Void)? = nil,
            fileProtection: FileProtectionType? = nil,
            sharedAcrossProcesses: Bool = false
        ) {
            self.name = name
            self.directory = directory
            self.countLimit = countLimit
            self.sizeLimit = sizeLimit
            self.expiration = expiration
            self.trimRatio = trimRatio
            self.sweepInterval = sweepInterval
            self.onEvent = onEvent
            self.fileProtection = fileProtection
            self.sharedAcrossProcesses = sharedAcrossProcesses
        }

        /// This configuration with every value in range, as a ``DiskStorage`` keeps it: negative limits
        /// are 0, and the trim ratio is clamped to 0...1 (NaN is the default, 0.8).
        var clamped: Configuration {
            var configuration = self
            configuration.countLimit = max(countLimit, 0)
            configuration.sizeLimit = max(sizeLimit, 0)
            configuration.trimRatio = trimRatio.isNaN ? 0.8 : min(max(trimRatio, 0), 1)
            return configuration
        }
    }
}
