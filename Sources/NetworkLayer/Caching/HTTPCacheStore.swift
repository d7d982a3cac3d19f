/// Where an ``HTTPCache`` keeps its answers: memory (``MemoryHTTPCacheStore``), a disk store of the
/// app's (recipe 3 in Docs/Recipes.md is one over CacheKit's `DiskStorage`, in a few lines), or anything
/// else.
///
/// Keys are the cache's: a partition (the digest of the request's credentials, the app's own, or
/// `public`), the URL's scheme, host and port, and a digest of the rest of the URL: never a secret, never
/// a path in clear. A key beginning `invalidated ` holds a note that an unsafe method changed the URL
/// (a `204` with no body and no header, whose `responseDate` says when). The methods are called synchronously,
/// from the request's task or a background revalidation's, possibly from several at once: a store is
/// thread-safe, and a slow one (disk) holds that task's thread while it reads. A store that cannot read
/// or write answers `nil` or drops the write (a cache that fails is a miss, never the request's failure).
/// A store bounds itself: one that keeps everything it is given grows without limit.
public protocol HTTPCacheStore: Sendable {
    /// The answer stored under `key`, or `nil`.
    /// - Parameter key: The cache's key.
    /// - Returns: The answer, or `nil`.
    func response(forKey key: String) -> CachedHTTPResponse?

    /// Stores `response` under `key`, replacing what was there. A store may decline an answer larger
    /// than it holds.
    /// - Parameters:
    ///   - response: The answer.
    ///   - key: The cache's key.
    func store(_ response: CachedHTTPResponse, forKey key: String)

    /// Removes the answer under `key`, if any.
    /// - Parameter key: The cache's key.
    func removeResponse(forKey key: String)

    /// Removes every answer.
    func removeAll()
}
