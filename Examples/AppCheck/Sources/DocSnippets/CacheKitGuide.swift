// swift-format-ignore-file
// The docs' code, laid out as the page shows it (see DocSnippets.swift).
import Foundation  //-
import CacheKit

func cacheKitGuideTour(url: URL, download: @escaping @Sendable (URL) async throws -> Data) async throws {  //-
    let posters = try Cache<Data>(name: "posters")
    let image = try await posters.value(forKey: url.absoluteString) {
        try await download(url)     // on a miss in every tier; once, however many callers miss together
    }
    _ = image  //-
}  //-

struct MovieDetails: Codable, Sendable, DataConvertible {
    let code: String
    let title: String
}

func cacheKitGuideTiers(client: any MyRedisClient) throws {  //-
    let cache = Cache<Data>(memory: MemoryStorage(), disk: try DiskStorage())   // or Cache(name: "posters")
    let custom = Cache<Data>(tiers: [MemoryStorage(), try DiskStorage(), SharedTier(client)])
    _ = (cache, custom)  //-
}  //-

/// A shared tier, for the guide's list of tiers.
struct SharedTier: CacheStorage {
    let redis: RedisTier
    init(_ client: any MyRedisClient) { redis = RedisTier(redis: client) }
    func entry(forKey key: String) async -> CacheEntry<Data>? { await redis.entry(forKey: key) }
    func store(_ value: Data, forKey key: String, expiration: CacheExpiration?) async throws {
        try await redis.store(value, forKey: key, expiration: expiration)
    }
    func removeValue(forKey key: String) async throws { try await redis.removeValue(forKey: key) }
    func removeAll() async throws { try await redis.removeAll() }
}

/// The Redis client the guide's sketch assumes: any client library offers these calls.
protocol MyRedisClient: Sendable {
    func pttl(_ key: String) async throws -> Int
    func get(_ key: String) async throws -> Data?
    func set(_ key: String, _ value: Data, expiresIn seconds: Double?) async throws
    func del(_ key: String) async throws
    func deleteMatching(_ pattern: String) async throws
}

struct RedisTier: CacheStorage {
    let redis: MyRedisClient                         // any client: RediStack, a pool of your own, ...
    let clock: CacheClock = .system

    func entry(forKey key: String) async -> CacheEntry<Data>? {
        // PTTL: the milliseconds left, -1 when no expiry is set, -2 when the key is gone. Asked first, so a
        // key that expires between the two calls is a miss rather than an entry that never expires.
        guard let left = try? await redis.pttl("cache:" + key), left != -2,
              let bytes = try? await redis.get("cache:" + key) else { return nil }
        let expiration: CacheExpiration = left == -1
            ? .never : .date(clock.now().addingTimeInterval(Double(left) / 1000))
        return CacheEntry(value: bytes, expiration: expiration)
    }

    func store(_ value: Data, forKey key: String, expiration: CacheExpiration?) async throws {
        let deadline = (expiration ?? .days(7)).expirationDate(from: clock.now())
        let seconds = deadline.timeIntervalSince(clock.now())
        guard seconds > 0 else { return try await redis.del("cache:" + key) }
        try await redis.set("cache:" + key, value, expiresIn: seconds.isFinite ? seconds : nil)
    }

    func removeValue(forKey key: String) async throws { try await redis.del("cache:" + key) }
    func removeAll() async throws { try await redis.deleteMatching("cache:*") }
}

func cacheKitGuideRedis(client: any MyRedisClient) throws {  //-
    let posters = Cache(tiers: [MemoryStorage(), try DiskStorage(), RedisTier(redis: client)])
    _ = posters  //-
}  //-

func cacheKitGuideAppAndExtensions(group: URL) throws {  //-
    let posters = try DiskStorage<Data>(
        configuration: .init(directory: group.appendingPathComponent("Posters"), sharedAcrossProcesses: true))
    _ = posters  //-
}  //-
