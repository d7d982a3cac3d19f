import Foundation

extension MemoryStorage {
    /// How a ``MemoryStorage`` behaves. Every property has a default.
    public struct Configuration: Sendable {
        /// The most entries kept; entries not read since the last eviction pass go first. `Int.max` (no limit) by default.
        public var countLimit: Int
        /// The most total cost kept; entries not read since the last eviction pass go first. `Int.max` (no limit) by default.
        /// A single value costing more than this is not stored at all.
        public var totalCostLimit: Int
        /// The expiration of an entry stored without one. 5 minutes by default.
        public var expiration: CacheExpiration
        /// How often expired entries are swept away; `nil` disables the sweep. 180 seconds by default.
        /// An interval shorter than 1 ms is 1 ms; NaN, infinity or more than a year disables the sweep.
        public var sweepInterval: TimeInterval?
        /// The cost of a value. By default, ``CacheCostCalculable/cacheCost`` when the value conforms,
        /// otherwise 1. A negative cost counts as 0, and no entry or limit counts for more than
        /// `Int.max / 2`, so the total never overflows.
        public var cost: @Sendable (Value) -> Int {
            get { customCost ?? { ($0 as? any CacheCostCalculable)?.cacheCost ?? 1 } }
            set { customCost = newValue }
        }
        /// The cost closure the app set, or `nil` for the default, which the storage computes without
        /// calling a closure (``MemoryStorage/cost(of:)``).
        @usableFromInline var customCost: (@Sendable (Value) -> Int)?
        /// Called after each ``CacheEvent``, outside the storage's lock. `nil` by default.
        public var onEvent: (@Sendable (CacheEvent) -> Void)?
        /// Where the storage hears memory warnings and the app's move to the background, to give memory
        /// back; ``MemorySignals/platform`` by default (nothing on Linux).
        public var signals: MemorySignals

        /// Creates a configuration.
        /// - Parameters:
        ///   - countLimit: The most entries kept; no limit by default.
        ///   - totalCostLimit: The most total cost kept; no limit by default.
        ///   - expiration: The default expiration; 5 minutes by default.
        ///   - sweepInterval: Seconds between sweeps of expired entries, or `nil`; 180 by default.
        ///   - cost: The cost of a value; its ``CacheCostCalculable/cacheCost`` or 1 by default.
        ///   - onEvent: A hook for logging or metrics; `nil` by default.
        ///   - signals: Where memory warnings come from; ``MemorySignals/platform`` by default.
        public init(
            countLimit: Int = .max,
            totalCostLimit: Int = .max,
            expiration: CacheExpiration = .seconds(300),
            sweepInterval: TimeInterval? = 180,
            cost: (@Sendable (Value) -> Int)? = nil,
            onEvent: (@Sendable (CacheEvent) -> Void)? = nil,
            signals: MemorySignals = .platform
        ) {
            self.countLimit = countLimit
            self.totalCostLimit = totalCostLimit
            self.expiration = expiration
            self.sweepInterval = sweepInterval
            self.customCost = cost
            self.onEvent = onEvent
            self.signals = signals
        }
    }
}
